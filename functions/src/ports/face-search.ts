import type { BoundingBox } from "./vision";

/** A photo of the event with a face like the selfie's. */
export interface FaceMatch {
  photoId: string;
  /** 0..100, as Rekognition's Similarity: how alike the photo's nearest face and the selfie are. */
  score: number;
  /**
   * Within the engine's same-person threshold. Otherwise a look-alike within its wider one: shown
   * apart, for the athlete to check, and never taken by the athlete's deletion.
   */
  certain: boolean;
}

/**
 * Selfie search's engine (issue 23), one per runtime: in AWS a Rekognition collection per event
 * (IndexFaces, SearchFacesByImage, DeleteCollection); locally face descriptors stored with the photo
 * and searched in memory. Only events whose organizer switched the search on are ever indexed.
 */
export interface FaceSearch {
  /**
   * The model behind the descriptors this engine keeps, when they are ours (locally). Descriptors of
   * two models cannot be compared: an event's faces kept by another are described again. Undefined
   * where the engine keeps them itself (a Rekognition collection carries its own model version).
   */
  descriptorModel(): Promise<string | undefined>;
  /**
   * Keeps what a later search needs of the faces `faces` found in one photo of the event (the photo's
   * upright pixels in `image`), replacing what an earlier run of the same photo kept. Returns how
   * many faces were kept.
   */
  indexPhoto(eventId: number, photoId: string, image: Buffer, faces: BoundingBox[]): Promise<number>;
  /**
   * The event's photos with a face like the one at `face` in the selfie, best first, each photo once:
   * the certain ones and the look-alikes. Nothing of the selfie is kept.
   */
  search(eventId: number, selfie: Buffer, face: BoundingBox): Promise<FaceMatch[]>;
  /**
   * The athlete's deletion: the event's photos `search` would answer as certain for this selfie
   * leave the event's face results (their faces are forgotten). Returns those photos' ids.
   */
  forget(eventId: number, selfie: Buffer, face: BoundingBox): Promise<string[]>;
  /** Forgets every face of the event: the search switched off, or the event deleted. */
  removeEvent(eventId: number): Promise<void>;
}
