import type { FaceSearchPhoto } from "@dorsal/shared/face-search";

/** What the selfie found, in one sentence: the photos it is sure of, and the look-alikes to check. */
export function foundSummary(found: Pick<FaceSearchPhoto, "certain">[]): string {
  const certain = found.filter((photo) => photo.certain).length;
  const possible = found.length - certain;
  if (certain === 0) {
    const lookAlikes = possible === 1 ? "1 foto: revísala" : `${possible} fotos: revísalas`;
    return `No estamos seguros de haberte encontrado, pero podrías aparecer en ${lookAlikes}.`;
  }
  const yours = certain === 1 ? "Encontramos 1 foto tuya" : `Encontramos ${certain} fotos tuyas`;
  if (possible === 0) return yours;
  return `${yours}, y ${possible === 1 ? "1 más en la que podrías aparecer" : `${possible} más en las que podrías aparecer`}`;
}
