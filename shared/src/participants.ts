import { z } from "zod";

/** API contracts of an event's start list (spec §3 participants) and of the suggestions it makes. */

/** One participant of the list, with the photos found under their bib. */
export interface ParticipantDto {
  dorsalNumber: string;
  name: string;
  email: string | null;
  category: string | null;
  photoCount: number;
}

/** GET /api/events/{id}/participants: a page of the list, continued from the last page's cursor. */
export const participantsQuery = z.object({
  cursor: z.string().max(2000).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export interface ParticipantPage {
  /** Null when the event has no start list (then `participants` is empty). */
  startList: { count: number; importedAt: string } | null;
  participants: ParticipantDto[];
  cursor: string | null;
}

/**
 * The answer to an import. The import is all-or-nothing: a file with any bad line is refused whole
 * (400, one `details` entry per line) and the current list stays as it was.
 */
export interface StartListImportResponse {
  imported: number;
  importedAt: string;
  /** Photos already processed, which keep their bibs until the event's bibs are re-indexed. */
  processedPhotos: number;
}

export interface StartListDeleteResponse {
  deleted: number;
  processedPhotos: number;
}

/** A read not on the start list, shown to the organizer with the listed bibs it may be a misread of. */
export interface BibSuggestionDto {
  number: string;
  nearest: { dorsalNumber: string; name: string | null }[];
}

export const acceptSuggestionRequest = z.object({
  /** The read the suggestion is for. */
  read: z.string().trim().min(1).max(20),
  /** The listed bib the organizer chose among the suggestion's nearest. */
  dorsalNumber: z.string().trim().min(1).max(20),
});
export type AcceptSuggestionRequest = z.infer<typeof acceptSuggestionRequest>;

export const startListMessages = {
  fileRequired: "Elige el archivo CSV de la lista de inscritos",
  tooLarge: (megabytes: number) => `El archivo supera el máximo de ${megabytes} MB`,
  refused: (errors: number) =>
    `${errors === 1 ? "1 línea tiene un error" : `${errors} líneas tienen errores`}: no se importó nada. Corrige el archivo y vuelve a importarlo.`,
  suggestionGone: "Esa sugerencia ya no está en la foto: actualiza la lista de fotos",
  notNearest: "Ese dorsal no es una de las sugerencias de la foto",
  switchedMeanwhile: "Otra importación de la lista terminó al mismo tiempo; vuelve a intentarlo",
} as const;
