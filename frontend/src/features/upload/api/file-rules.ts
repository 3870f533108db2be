import { imageContentType, limits } from "@dorsal/shared";
import { formatBytes } from "../../../lib/format";

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
    if (!imageContentType(file)) selection.unsupported.push(file);
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
