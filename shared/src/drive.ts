import { z } from "zod";
import { idParam } from "./api";

/**
 * Cloud-drive folder import (spec §2.5, §3, §7, §8): the shapes and Spanish texts both sides use.
 * Kept out of the package's index, as the staff-only requests are: no athlete screen loads them.
 */

/** Spec §3: a cloud-drive folder. */
export interface DriveFolder {
  id: string;
  name: string;
}

/** Spec §3: a drive photo; its size in bytes as a string, as Drive v3 reports it. */
export interface DrivePhoto {
  id: string;
  name: string;
  size: string;
}

/** The admin's folders, or that the account has no drive connected yet. */
export interface DriveFoldersAnswer {
  connected: boolean;
  folders: DriveFolder[];
}

/** Spec §9: a folder's preview shows 12 photos, then '+N más'. */
export const drivePreviewCount = 12;

export interface DrivePhotosAnswer {
  /** The first `drivePreviewCount` photos of the folder. */
  photos: DrivePhoto[];
  /** Every photo the folder holds (what an import would bring). */
  total: number;
}

export interface DriveAuthAnswer {
  authUrl: string;
}

/**
 * An import runs in the background as a batch, the very batch a ZIP becomes (polled at
 * `/api/photos/batch-status/{batchId}`): its counters are the progress the screen shows.
 */
export interface DriveImportAnswer {
  success: true;
  batchId: string;
  /** The folder's photos the import takes on; those imported before are counted but not brought again. */
  totalFiles: number;
}

/** Drive file ids are letters, digits, '-' and '_'. */
export const driveFolderId = z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, "Selecciona una carpeta");

export const driveImportRequest = z.object({ folderId: driveFolderId });
export const driveImportParams = z.object({ eventId: idParam });

/** Spec §7: `?email=&clean=true`; clean asks the provider to show its account chooser and consent again. */
export const driveAuthQuery = z.object({
  email: z.string().trim().max(320).optional(),
  clean: z.enum(["true", "false"]).optional(),
});

/** What the provider sends back to the callback: a code and our state, or an error. */
export const driveCallbackQuery = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
});

/** Spec §2.5: the upload screen learns how the authorization ended from this query value. */
export const driveAuthParam = "drive_auth";
export type DriveAuthOutcome = "success" | "error";

export const driveMessages = {
  /** Spec §8. */
  importErrorTitle: "Error de importación",
  importError: "No se pudieron importar las fotos desde Google Drive",
  connectionError: "Error de conexión",
  /** Spec §5. */
  selectFolder: "Selecciona una carpeta",
  notConnected: "Conecta tu Google Drive para importar fotos",
  authExpired: "La conexión con Google Drive venció. Vuelve a conectar tu cuenta.",
  authRefused: "Google Drive no autorizó la conexión. Inténtalo de nuevo.",
  folderNotFound: "Carpeta no encontrada en Google Drive",
  folderEmpty: "La carpeta no tiene fotos para importar",
  unavailable: "Google Drive no está configurado en este servidor",
  /** A skipped file's reason, beside the ZIP's own (too large, not an image). */
  alreadyImported: "Ya se importó antes a este evento",
} as const;
