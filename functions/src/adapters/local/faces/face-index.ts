import { DESCRIPTOR_LENGTH } from "./face-recognition";

/**
 * Two L2-normalised descriptors closer than this (Euclidean) are taken for the same person. Chosen
 * with `npm run bench:faces` on the RBNR race photos; see docs/selfie-search.md for the sweep.
 */
export const SAME_PERSON_DISTANCE = 0.275;

export interface FaceMatch {
  photoId: string;
  /** Euclidean distance of the photo's nearest face to the selfie: 0..2. */
  distance: number;
}

/**
 * One event's face descriptors in one flat array, searched exhaustively. At 128 floats a face, an
 * event of 100,000 photos with a few faces each is a few hundred MB at most and a scan of tens of
 * milliseconds; beyond that an approximate index (HNSW, IVF) would take over.
 */
export class FaceIndex {
  private vectors = new Float32Array(1024 * DESCRIPTOR_LENGTH);
  private readonly photoIds: string[] = [];

  get size(): number {
    return this.photoIds.length;
  }

  add(photoId: string, descriptor: Float32Array): void {
    if (descriptor.length !== DESCRIPTOR_LENGTH) throw new Error(`a face descriptor has ${DESCRIPTOR_LENGTH} values`);
    const offset = this.photoIds.length * DESCRIPTOR_LENGTH;
    if (offset + DESCRIPTOR_LENGTH > this.vectors.length) {
      const grown = new Float32Array(this.vectors.length * 2);
      grown.set(this.vectors);
      this.vectors = grown;
    }
    this.vectors.set(descriptor, offset);
    this.photoIds.push(photoId);
  }

  /** Photos with a face within `maxDistance` of the selfie's descriptor, nearest first, each once. */
  search(selfie: Float32Array, maxDistance = SAME_PERSON_DISTANCE): FaceMatch[] {
    // For unit vectors |a − b|² = 2 − 2 a·b, so a dot product decides without a square root.
    const minDot = 1 - (maxDistance * maxDistance) / 2;
    const best = new Map<string, number>();
    const vectors = this.vectors;
    for (let row = 0; row < this.photoIds.length; row++) {
      const offset = row * DESCRIPTOR_LENGTH;
      let dot = 0;
      for (let i = 0; i < DESCRIPTOR_LENGTH; i++) dot += (selfie[i] as number) * (vectors[offset + i] as number);
      if (dot < minDot) continue;
      const photoId = this.photoIds[row] as string;
      if (dot > (best.get(photoId) ?? -2)) best.set(photoId, dot);
    }
    return [...best]
      .map(([photoId, dot]) => ({ photoId, distance: Math.sqrt(Math.max(0, 2 - 2 * dot)) }))
      .sort((a, b) => a.distance - b.distance);
  }
}
