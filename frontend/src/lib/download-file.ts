/**
 * Downloads one file with progress and saves it under `filename`. The URL may answer with a
 * redirect to a signed storage URL; fetch follows it. Progress comes from reading the body as a
 * stream against Content-Length (unknown length: 0 until done).
 */
export async function downloadFile(
  url: string,
  filename: string,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  const response = await fetch(url, { signal, credentials: "same-origin" });
  if (!response.ok || !response.body) throw new Error(`${response.status}`);
  const total = Number(response.headers.get("content-length")) || 0;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    if (total > 0) onProgress(Math.min(99, Math.round((received / total) * 100)));
  }
  const blob = new Blob(chunks as BlobPart[], {
    type: response.headers.get("content-type") ?? "application/octet-stream",
  });
  saveBlob(blob, filename);
  onProgress(100);
}

/** Hands bytes already in the page to the browser as a file saved under `filename`. */
export function saveBlob(blob: Blob, filename: string): void {
  const objectUrl = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = objectUrl;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later, not now: the browser starts reading the object URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
}

/** Spec §9: a pause between files of a bulk download, so the browser does not block them as a burst. */
export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
