import type { CompactDescriptor } from "../../../data/photo-faces";
import { DESCRIPTOR_LENGTH } from "./faceres";

/**
 * Two L2-normalised descriptors closer than this (Euclidean) are taken for the same person: the
 * largest recall at precision ≥ 0.95 of `npm run bench:faces` on the RBNR race photos; see
 * docs/selfie-search.md for the sweep.
 */
export const SAME_PERSON_DISTANCE = 0.725;

/**
 * Beyond SAME_PERSON_DISTANCE and within this, a face is a look-alike the athlete is shown apart, to
 * check: on the same benchmark, the threshold with the most recall at precision ≥ 0.80 (the smallest
 * of those, where several tie).
 */
export const POSSIBLE_DISTANCE = 0.775;

export interface FaceMatch {
  photoId: string;
  /** Euclidean distance of the photo's nearest face to the selfie: 0..2. */
  distance: number;
}

/**
 * One event's face descriptors, as kept (one signed byte a value), in one flat array searched
 * exhaustively. At 1 KB a face, an event of 100,000 photos with three faces each is 300 MB and a
 * scan of about a second on one core (docs/selfie-search.md); beyond that an approximate index (HNSW,
 * IVF) would take over.
 */
export class FaceIndex {
  private codes = new Int8Array(1024 * DESCRIPTOR_LENGTH);
  private scales = new Float32Array(1024);
  private readonly photoIds: string[] = [];

  get size(): number {
    return this.photoIds.length;
  }

  add(photoId: string, { scale, codes }: CompactDescriptor): void {
    if (codes.length !== DESCRIPTOR_LENGTH) throw new Error(`a face descriptor has ${DESCRIPTOR_LENGTH} values`);
    const row = this.photoIds.length;
    if (row === this.scales.length) {
      const codesGrown = new Int8Array(this.codes.length * 2);
      codesGrown.set(this.codes);
      this.codes = codesGrown;
      const scalesGrown = new Float32Array(this.scales.length * 2);
      scalesGrown.set(this.scales);
      this.scales = scalesGrown;
    }
    this.codes.set(codes, row * DESCRIPTOR_LENGTH);
    this.scales[row] = scale;
    this.photoIds.push(photoId);
  }

  /** Photos with a face within `maxDistance` of the selfie's descriptor, nearest first, each once. */
  search(selfie: Float32Array, maxDistance = SAME_PERSON_DISTANCE): FaceMatch[] {
    // For unit vectors |a − b|² = 2 − 2 a·b, so a dot product decides without a square root.
    const minDot = 1 - (maxDistance * maxDistance) / 2;
    const best = new Map<string, number>();
    const codes = this.codes;
    for (let row = 0; row < this.photoIds.length; row++) {
      const offset = row * DESCRIPTOR_LENGTH;
      // Four running sums: the additions no longer wait on each other (a third faster, measured).
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let i = 0; i < DESCRIPTOR_LENGTH; i += 4) {
        const at = offset + i;
        s0 += (selfie[i] as number) * (codes[at] as number);
        s1 += (selfie[i + 1] as number) * (codes[at + 1] as number);
        s2 += (selfie[i + 2] as number) * (codes[at + 2] as number);
        s3 += (selfie[i + 3] as number) * (codes[at + 3] as number);
      }
      const dot = (s0 + s1 + s2 + s3) * (this.scales[row] as number);
      if (dot < minDot) continue;
      const photoId = this.photoIds[row] as string;
      if (dot > (best.get(photoId) ?? -2)) best.set(photoId, dot);
    }
    return [...best]
      .map(([photoId, dot]) => ({ photoId, distance: Math.sqrt(Math.max(0, 2 - 2 * dot)) }))
      .sort((a, b) => a.distance - b.distance);
  }
}
