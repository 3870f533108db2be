import { z } from "zod";
import { idParam } from "./api";

/**
 * Selfie search (issue 23): an athlete finds their photos of an event with a selfie, with consent.
 * A subpath of its own (`@dorsal/shared/face-search`), out of the package's index: only the
 * selfie panel, loaded when the athlete opens it, and the organizer's settings use it.
 */

/** The form fields of POST /api/photos/search-by-face (and of the deletion, which takes the same). */
export const faceSearchFields = z.object({
  eventId: idParam,
  // Not a boolean coerced from anything truthy: the athlete ticked the box, or the answer is 400.
  consent: z.literal("true", { error: () => faceSearchMessages.consentRequired }).optional(),
});

/** The selfie's types; HEIC is decoded on the server as the pipeline decodes it. */
export const selfieContentTypes = ["image/jpeg", "image/png", "image/heic", "image/heif"] as const;
/** A phone's selfie is 1–5 MB; anything past this is not a selfie. */
export const selfieMaxBytes = 15 * 1024 * 1024;

export interface FaceSearchPhoto {
  id: string;
  filename: string;
  thumbnailUrl: string | null;
  /** The public copy a preview opens (watermarked, or GRATIS/DEMO on a free event). */
  webUrl: string | null;
  /** 0..100: how alike the photo's nearest face and the selfie are (Rekognition's Similarity). */
  score: number;
  /**
   * The athlete's face, as far as the engine can tell; false for a look-alike the athlete is shown
   * apart, to check (sorted after every certain photo: certain photos score higher).
   */
  certain: boolean;
}

export interface FaceSearchResponse {
  photos: FaceSearchPhoto[];
}

/** What the athlete's deletion removed from the event's face results. */
export interface FaceForgetResponse {
  removedPhotos: number;
}

/** PUT /api/events/{id}/face-search (admin): the organizer's switch. */
export const faceSearchSettingRequest = z.object({ enabled: z.boolean() });
export type FaceSearchSettingRequest = z.infer<typeof faceSearchSettingRequest>;

export const faceSearchMessages = {
  consentRequired: "Debes aceptar el tratamiento de tu selfie para buscar con ella",
  selfieRequired: "Adjunta una selfie (JPEG, PNG o HEIC)",
  selfieType: "La selfie debe ser una foto JPEG, PNG o HEIC",
  selfieTooLarge: "La selfie es demasiado grande: máximo 15 MB",
  selfieUnreadable: "No se pudo leer la selfie. Prueba con otra foto",
  off: "Este evento no tiene activada la búsqueda por selfie",
  noFace: "No encontramos una cara en tu selfie. Prueba con una foto de frente y bien iluminada",
  severalFaces: "Tu selfie tiene varias caras. Usa una foto en la que solo aparezcas tú",
  noMatch: "No encontramos fotos tuyas con esta selfie. Prueba con tu número de dorsal",
} as const;
