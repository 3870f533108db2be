import { formatCount } from "../../../lib/format";

/** '1 foto', '1.200 fotos'. */
export function photosLabel(count: number): string {
  return `${formatCount(count)} ${count === 1 ? "foto" : "fotos"}`;
}
