import { acceptedImageTypes, limits } from "@dorsal/shared";
import { formatBytes } from "../../../lib/format";

/**
 * Some phones and desktop browsers report an empty or generic type (HEIC above all), so spec §5
 * also accepts by extension; the server checks the real bytes anyway.
 */
const typeByExtension: Record<string, (typeof acceptedImageTypes)[number]> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  tif: "image/tiff",
  tiff: "image/tiff",
  bmp: "image/bmp",
  gif: "image/gif",
  heic: "image/heic",
  heif: "image/heif",
};

/** Value for `<input accept>`: the types plus the extensions that browsers may not map. */
export const acceptAttribute = [...acceptedImageTypes, ...Object.keys(typeByExtension).map((ext) => `.${ext}`)].join(
  ",",
);

export function contentTypeOf(file: Pick<File, "name" | "type">): string | null {
  if ((acceptedImageTypes as readonly string[]).includes(file.type)) return file.type;
  const extension = file.name.split(".").pop()?.toLowerCase() ?? "";
  return typeByExtension[extension] ?? null;
}

/** Identity of a picked file, so picking the same photo twice does not upload it twice. */
export function fileKey(file: Pick<File, "name" | "size" | "lastModified">): string {
  return `${file.name}:${file.size}:${file.lastModified}`;
}

export interface FileSelection<F> {
  accepted: F[];
  tooLarge: F[];
  unsupported: F[];
  empty: F[];
}

export function partitionFiles<F extends Pick<File, "name" | "type" | "size" | "lastModified">>(
  files: Iterable<F>,
  alreadySelected: ReadonlySet<string>,
): FileSelection<F> {
  const selection: FileSelection<F> = { accepted: [], tooLarge: [], unsupported: [], empty: [] };
  const seen = new Set(alreadySelected);
  for (const file of files) {
    if (!contentTypeOf(file)) selection.unsupported.push(file);
    else if (file.size === 0) selection.empty.push(file);
    else if (file.size > limits.photoMaxBytes) selection.tooLarge.push(file);
    else if (!seen.has(fileKey(file))) {
      seen.add(fileKey(file));
      selection.accepted.push(file);
    }
  }
  return selection;
}

const maxNamesListed = 5;

function listNames(files: Pick<File, "name">[]): string {
  const names = files.slice(0, maxNamesListed).map((file) => file.name);
  const rest = files.length - names.length;
  return rest > 0 ? `${names.join(", ")} y ${rest} más` : names.join(", ");
}

/** Spanish explanations of why picked files were left out, one line per reason. */
export function rejectionMessages(selection: FileSelection<Pick<File, "name">>): string[] {
  const lines: string[] = [];
  if (selection.tooLarge.length > 0) {
    lines.push(
      `Archivos demasiado grandes (máximo ${formatBytes(limits.photoMaxBytes)} por foto): ${listNames(selection.tooLarge)}`,
    );
  }
  if (selection.unsupported.length > 0) {
    lines.push(`Tipo de archivo no aceptado: ${listNames(selection.unsupported)}`);
  }
  if (selection.empty.length > 0) {
    lines.push(`Archivos vacíos: ${listNames(selection.empty)}`);
  }
  return lines;
}
