/**
 * Spec §9's mobile compression, applied before a phone uploads (skippable with the quick-upload
 * checkbox): HEIC/HEIF are left alone (browsers cannot all decode them, and the server converts
 * them anyway); a photo with both sides at most 1920 px and under 5 MB is left alone; anything else
 * is scaled so its longest side is 1920 px and re-encoded as JPEG at quality 0.8, and the result is
 * used only if it is smaller. Compression that takes over 30 s gives up and sends the original.
 */
export const compressionRules = {
  maxSide: 1920,
  smallBytes: 5 * 1024 * 1024,
  quality: 0.8,
  timeoutMs: 30_000,
} as const;

export function skipsCompressionByType(file: { name: string; type: string }): boolean {
  return /^image\/hei[cf]$/i.test(file.type) || /\.hei[cf]$/i.test(file.name);
}

export function needsCompression(size: { width: number; height: number }, bytes: number): boolean {
  const small = size.width <= compressionRules.maxSide && size.height <= compressionRules.maxSide;
  return !(small && bytes < compressionRules.smallBytes);
}

/** The longest side becomes 1920 px; a photo already smaller keeps its size (never enlarged). */
export function compressedSize(size: { width: number; height: number }): { width: number; height: number } {
  const scale = Math.min(1, compressionRules.maxSide / Math.max(size.width, size.height));
  return { width: Math.round(size.width * scale), height: Math.round(size.height * scale) };
}

export function smallerOf<T extends { size: number }>(original: T, compressed: T | null): T {
  return compressed && compressed.size < original.size ? compressed : original;
}

/** A JPEG name for re-encoded bytes, so the stored name says what the file is. */
export function jpegName(name: string): string {
  return /\.[^./]+$/.test(name) ? name.replace(/\.[^./]+$/, ".jpg") : `${name}.jpg`;
}

async function reencode(file: Blob): Promise<Blob | null> {
  const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  try {
    if (!needsCompression(bitmap, file.size)) return null;
    const target = compressedSize(bitmap);
    const canvas = document.createElement("canvas");
    canvas.width = target.width;
    canvas.height = target.height;
    canvas.getContext("2d")?.drawImage(bitmap, 0, 0, target.width, target.height);
    return await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", compressionRules.quality));
  } finally {
    bitmap.close();
  }
}

/** The bytes to upload: the compressed JPEG when the rules call for it and it is smaller, else the original. */
export async function compressForPhone(file: File): Promise<File> {
  if (skipsCompressionByType(file)) return file;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), compressionRules.timeoutMs);
  });
  try {
    // A photo the browser cannot decode goes as it is: the server decides what it accepts.
    const compressed = await Promise.race([reencode(file).catch(() => null), timeout]);
    const chosen = smallerOf<Blob>(file, compressed);
    return chosen === file ? file : new File([chosen], jpegName(file.name), { type: "image/jpeg" });
  } finally {
    clearTimeout(timer);
  }
}
