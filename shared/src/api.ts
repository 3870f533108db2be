import { z } from "zod";
import { limits } from "./constants";
import { messages } from "./messages";
import { roles } from "./roles";

/** API contracts shared by the handlers (validation) and the browser (types). */

export const idParam = z.coerce.number().int().positive();

export const loginRequest = z.object({
  email: z.string().trim().toLowerCase().email(),
  password: z.string().min(1),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const publicUser = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: z.enum(roles),
  assignedEventId: z.number().nullable(),
  createdAt: z.string(),
  lastLogin: z.string().nullable(),
});
export type PublicUser = z.infer<typeof publicUser>;

export type LoginResponse = { success: true; token: string; user: PublicUser } | { success: false; error: string };

export const createEventRequest = z.object({
  name: z.string().trim().min(1).max(200),
  date: z.string({ error: messages.dateRequired }).trim().min(1, messages.dateRequired).date(messages.dateRequired),
  location: z.string().trim().max(200).default(""),
  expectedParticipants: z.coerce.number().int().min(0).max(1_000_000).default(0),
  status: z.enum(["active", "processing", "completed"]).default("active"),
});
export type CreateEventRequest = z.input<typeof createEventRequest>;
export type CreateEventInput = z.output<typeof createEventRequest>;

export interface EventDto {
  id: number;
  name: string;
  date: string;
  location: string;
  expectedParticipants: number;
  status: string;
  freePhotosEnabled: boolean;
  freePhotosEnabledAt: string | null;
  requiresAthleteLogin: boolean;
  /** Photos processed and searchable. */
  photoCount: number;
  /** Photos received (processed, in progress or failed). */
  totalPhotos: number;
  failedPhotos: number;
  /** Photos refused as copies of one the event already has; processed + failed + duplicates = total. */
  duplicatePhotos: number;
  createdAt: string;
  updatedAt: string;
}

export const presignRequest = z.object({
  eventId: idParam,
  files: z
    .array(
      z.object({
        filename: z.string().trim().min(1).max(255),
        contentType: z.string().max(100).default("application/octet-stream"),
        size: z.number().int().positive().max(limits.photoMaxBytes, messages.fileTooLarge),
      }),
    )
    .min(1, messages.selectPhoto)
    .max(200),
  /** Keep these photos even if the event already has the same bytes (otherwise they end as `duplicate`). */
  forceDuplicates: z.boolean().optional(),
});
export type PresignRequest = z.input<typeof presignRequest>;

export interface PresignedUpload {
  photoId: string;
  filename: string;
  url: string;
  /** Headers the PUT must carry exactly, because they are part of the signature. */
  headers: Record<string, string>;
}
export interface PresignResponse {
  uploads: PresignedUpload[];
}

export interface DetectedBib {
  number: string;
  /** 0..100; manual tags are 100. */
  confidence: number;
  /** Normalised 0..1, like Rekognition's BoundingBox; null for manual tags. */
  box: { left: number; top: number; width: number; height: number } | null;
  source: "machine" | "manual";
}

/** An organizer's corrections; they win over the machine on every re-run. */
export interface ManualBibs {
  added: string[];
  removed: string[];
}

export const bibNumber = z
  .string()
  .trim()
  .regex(/^\d{1,10}$/, "El dorsal debe tener solo dígitos")
  .transform((bib) => bib.replace(/^0+(?=\d)/, ""));

/** The recognition settings of an event (spec §3 event_configs) an organizer can change. */
export const eventRecognitionConfig = z
  .object({
    ocrConfidenceThreshold: z.coerce.number().min(0).max(100),
    maxDorsalsPerPhoto: z.coerce.number().int().min(1).max(50),
    /** Minimum digit height as a fraction of the wearer's face height; 0 turns the rule off. */
    dorsalSizeThreshold: z.coerce.number().min(0).max(1),
    enableMultiDorsalSupport: z.boolean(),
    /** The digits the event's bibs have, e.g. 3 to 4 for bibs 100–2500. */
    minDigits: z.coerce.number().int().min(1).max(10),
    maxDigits: z.coerce.number().int().min(1).max(10),
    /** For zero-padded bibs ("0891"); otherwise a leading zero means a hidden first digit. */
    allowLeadingZeros: z.boolean(),
  })
  .refine((config) => config.minDigits <= config.maxDigits, {
    message: "El mínimo de dígitos no puede superar el máximo",
    path: ["minDigits"],
  });
export type EventRecognitionConfig = z.infer<typeof eventRecognitionConfig>;

export interface EventConfigDto extends EventRecognitionConfig {
  eventId: number;
  configurationVersion: number;
  updatedAt: string | null;
}

export interface ReindexResponse {
  /** Photos looked at in this page. */
  processed: number;
  /** Photos whose bibs changed. */
  changed: number;
  /** Pass back to continue; null when the event is done. */
  cursor: string | null;
}

export interface PhotoPage {
  photos: PhotoDto[];
  cursor: string | null;
}

export interface PhotoDto {
  id: string;
  eventId: number;
  filename: string;
  originalFilename: string;
  detectedDorsals: string[];
  bibs: DetectedBib[];
  manualBibs: ManualBibs;
  processed: boolean;
  processingStatus: string;
  failureReason: string | null;
  uploadedAt: string;
  processedAt: string | null;
  thumbnailUrl: string | null;
  webUrl: string | null;
  /**
   * What `webUrl` shows: the clean copy (admin and photographer views), the watermarked preview
   * (public, paid event) or the copy with the GRATIS/DEMO overlay (public, free photos enabled).
   */
  previewKind: PreviewKind;
}

export type PreviewKind = "clean" | "watermarked" | "gratis";

export interface UploadResponse {
  message: string;
  uploaded: number;
  failed: number;
  photos: PhotoDto[];
  performance: { successful: number; failed: number; duplicates: number; errors: string[] };
}

export const searchQuery = z.object({
  eventId: idParam,
  dorsalNumber: z
    .string()
    .trim()
    .regex(/^\d{1,10}$/, messages.incompleteSearch),
});

export interface SearchResponse {
  totalFound: number;
  dorsalNumber: string;
  photos: PhotoDto[];
}

export interface ErrorResponse {
  success: false;
  error: string;
  details?: { path: string; message: string }[];
}

export interface DashboardStats {
  activeEvents: number;
  processedPhotos: number;
  detectedDorsals: number;
  /** Whole COP of paid sales this calendar month. */
  monthlySales: number;
}
