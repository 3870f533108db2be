import { z } from "zod";
import { bibTextMessage, isBibText, normaliseBib } from "./bib-format";
import { limits } from "./constants";
import { messages } from "./messages";
import type { BibSuggestionDto } from "./participants";
import { roles } from "./roles";
import type {
  assignEventRequest,
  changePasswordRequest,
  createEventRequest,
  createUserRequest,
  deleteEventRequest,
  eventRecognitionConfig,
  loginRequest,
  presignRequest,
  rerunFailedRequest,
  setUserPasswordRequest,
  updateUserRequest,
  uploadSignRequest,
  uploadTargetRequest,
  zipBatchRequest,
} from "./staff-requests";

/** API contracts shared by the handlers (validation) and the browser (types). */

export const idParam = z.coerce.number().int().positive();
/** Account ids as the ids port makes them. */
export const userIdParam = z.string().regex(/^[A-Za-z0-9_-]{6,64}$/);
/** Photo and ZIP batch ids as the server makes them. */
export const photoIdParam = z.string().regex(/^[a-z0-9]{10,40}$/);

/** Every password field: scrypt hashes any length, and the cap keeps one request from hashing megabytes. */
export const password = z.string().max(limits.passwordMaxLength, messages.passwordTooLong);
/** A password being set: the spec's minimum applies too. */
export const newPassword = password.min(limits.passwordMinLength, messages.passwordTooShort);

export type LoginRequest = z.infer<typeof loginRequest>;

export const publicUser = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: z.enum(roles),
  assignedEventId: z.number().nullable(),
  createdAt: z.string(),
  lastLogin: z.string().nullable(),
  /** When the owner opened the verification link sent to this email; null until then (and after an email change). */
  emailVerifiedAt: z.string().nullable(),
});
export type PublicUser = z.infer<typeof publicUser>;

/**
 * A sign-in's answer (login, athlete registration). A refusal is an error status with
 * `{ success: false, error }`, never this body.
 */
export interface LoginResponse {
  success: true;
  token: string;
  user: PublicUser;
}

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
  /** 'Búsqueda por selfie' (issue 23): off unless the organizer switched it on. */
  faceSearch: boolean;
  /** Photos processed and searchable. */
  photoCount: number;
  /** Photos received (processed, in progress or failed). */
  totalPhotos: number;
  failedPhotos: number;
  /** Photos refused as copies of one the event already has; processed + failed + duplicates = total. */
  duplicatePhotos: number;
  /** Admins' list only: the recount of the event's counters under way, when one is. */
  recount?: EventRecountProgress;
  createdAt: string;
  updatedAt: string;
}

/**
 * How far a recount of an event's counters has got (a background job that goes on from its last
 * page after a crash): shown on the events screen.
 */
export interface EventRecountProgress {
  /** Reading the photos, then each bib's links (when it counts them too), then writing the counters. */
  phase: "photos" | "bibs" | "replace";
  /** 0–99: the share of the photos (and bibs) read so far, each phase weighed alike. */
  percent: number;
}

/**
 * GET /api/events/{id}/sales-summary (admin): the event's paid sales, so freeing its photos says
 * who already paid for them. Amounts are whole COP, as sales are.
 */
export interface EventSalesSummary {
  eventId: number;
  paidSales: number;
  paidAmount: number;
}

export type DeleteEventRequest = z.infer<typeof deleteEventRequest>;

/** What a deletion has removed so far; a count is 0 when the event had none. */
export interface EventDeletionCounts {
  /** Photos in every state (processed, pending, failed, duplicate). */
  photos: number;
  /** Photo-under-bib links (what bib search reads). */
  bibLinks: number;
  /** Bibs of the event with their photo counts. */
  participants: number;
  /** Duplicate guards (one per distinct photo content). */
  contentHashes: number;
  zipBatches: number;
  /** Uploads of the upload screen (each with its files). */
  uploads: number;
  /** Stored files: originals, web copies, thumbnails, previews, GRATIS/DEMO copies, uploaded ZIPs. */
  objects: number;
}

/**
 * An event's deletion, which runs in the background (a Step Functions workflow): the event is gone
 * from every page at once, its photos, bibs and files go a slice at a time.
 */
export interface EventDeletionDto {
  eventId: number;
  eventName: string;
  status: "running" | "done";
  startedAt: string;
  finishedAt: string | null;
  /** The event's photos when its deletion began: what `deleted.photos` heads for. */
  photosAtStart: number;
  /** Share of the work done, 0 to 1: estimated from the steps done and the counts so far. */
  progress: number;
  deleted: EventDeletionCounts;
}

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

export type UploadTargetRequest = z.input<typeof uploadTargetRequest>;
export type UploadTargetInput = z.output<typeof uploadTargetRequest>;

export interface UploadTarget {
  key: string;
  /** The pending photo the upload becomes; null for a ZIP. */
  photoId: string | null;
  url: string;
  /** Headers the request must carry exactly, because they are part of the signature. */
  headers: Record<string, string>;
}

export type UploadSignRequest = z.input<typeof uploadSignRequest>;

export interface UploadSignature {
  url: string;
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

/** A bib as typed (search, codes, removal): letters and digits, stored and compared as printed. */
export const bibNumber = z.string().trim().refine(isBibText, bibTextMessage).transform(normaliseBib);

export type EventRecognitionConfig = z.infer<typeof eventRecognitionConfig>;

/** The recognition settings as stored: what the bib rules read. */
export interface EventRecognitionSettings extends Omit<EventRecognitionConfig, "bibPattern"> {
  bibPattern: string;
  eventId: number;
  configurationVersion: number;
  updatedAt: string | null;
}

export interface EventConfigDto extends EventRecognitionSettings {
  /** 'Búsqueda por selfie': switched apart (PUT /api/events/{id}/face-search), as it creates or deletes data. */
  faceSearch: boolean;
  /**
   * With the switch on: how many of the photos the event had when it was switched on have been
   * looked at for faces (`done` of `total`), in the background; null when it had none.
   */
  faceIndexing: { done: number; total: number; finished: boolean } | null;
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
  /** Admin review only: reads not on the event's start list, with the listed bibs they may be. */
  suggestions?: BibSuggestionDto[];
  /**
   * Admin lists only, for a `duplicate`: the photo of the event with the same content. The images
   * above are then that photo's, since the bytes are the same.
   */
  duplicateOf?: { id: string; originalFilename: string } | null;
}

export type PreviewKind = "clean" | "watermarked" | "gratis";

export interface UploadResponse {
  message: string;
  uploaded: number;
  failed: number;
  photos: PhotoDto[];
  performance: { successful: number; failed: number; duplicates: number; errors: string[] };
  /** The upload session the photos were received under; resume-upload with it skips what already arrived. */
  sessionId?: string;
}

/**
 * Spec §2.6: the admin searching a bib sees the photos clean in admin mode, and as any participant
 * does in participant mode (the default, and the only mode anyone else may ask for).
 */
export const searchModes = ["participant", "admin"] as const;
export type SearchMode = (typeof searchModes)[number];

export const searchQuery = z.object({
  eventId: idParam,
  dorsalNumber: z.string().trim().refine(isBibText, messages.incompleteSearch),
});

export interface SearchResponse {
  totalFound: number;
  dorsalNumber: string;
  /** The bib's participant on the event's start list, when it has one. */
  participantName?: string | null;
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
  /** Events created this calendar month (Colombian time, UTC−5, as every day and month here), any status. */
  eventsCreatedThisMonth: number;
  /** Photos that became searchable today. */
  processedToday: number;
  /** Whole percent of processed photos with at least one bib; null while none is processed. */
  photosWithBibPercent: number | null;
  /** Whole COP of paid sales last calendar month. */
  previousMonthSales: number;
}

/** Status of a ZIP batch (spec §4): polled every 2 s until `completed` or `error`. */
export const zipBatchStatuses = ["uploading", "extracting", "processing", "completed", "error"] as const;
export type ZipBatchStatus = (typeof zipBatchStatuses)[number];

export type ZipBatchRequest = z.input<typeof zipBatchRequest>;

export interface ZipBatchCreated {
  success: true;
  batchId: string;
  /** Where the ZIP goes in the originals bucket; extraction starts when an object lands there. */
  key: string;
  url: string;
  /** Headers the PUT must carry exactly, because they are part of the signature. */
  headers: Record<string, string>;
}

/** `POST /api/photos/upload-zip` (spec §7): totalFiles is known at once, from the central directory. */
export interface ZipUploadResponse {
  success: true;
  batchId: string;
  totalFiles: number;
}

export interface ZipSkippedEntry {
  name: string;
  reason: string;
}

export interface ZipBatchStatusResponse {
  success: true;
  batchId: string;
  eventId: number;
  status: ZipBatchStatus;
  /** Files in the ZIP (directories and macOS metadata aside): extracted + skipped. */
  totalFiles: number;
  /** Photos written to the event's originals. */
  extractedFiles: number;
  /** Extracted photos the pipeline has finished with (processed, failed or duplicate). */
  processedFiles: number;
  skippedFiles: number;
  /** The first skipped entries with their reason (the count above is complete). */
  skipped: ZipSkippedEntry[];
  error: string | null;
}

/** GET /api/events/{id}/processing: the event's counters, read from its atomic stats (no photo scan). */
export interface EventProcessingDto {
  eventId: number;
  /** Photos received: processed + failed + duplicates + still pending. */
  totalPhotos: number;
  processedPhotos: number;
  failedPhotos: number;
  duplicatePhotos: number;
  pendingPhotos: number;
  /** Photos finished per minute over the last 10 minutes; null when none finished in that window. */
  photosPerMinute: number | null;
  lastProcessedAt: string | null;
}

/** One photo of the dead-letter list (GET /api/admin/failed-photos). */
export interface FailedPhotoDto {
  id: string;
  eventId: number;
  eventName: string | null;
  originalFilename: string;
  failureReason: string | null;
  failedAt: string | null;
  /** Pipeline runs that reached processing; a re-run that fails again adds one. */
  attempts: number;
  thumbnailUrl: string | null;
}

export interface FailedPhotoPage {
  photos: FailedPhotoDto[];
  /** Pass back as `cursor` for the next page; null on the last. */
  cursor: string | null;
}

export type RerunFailedRequest = z.infer<typeof rerunFailedRequest>;

export interface RerunFailedResponse {
  /** Photos taken off the failed list and started again. */
  requeued: number;
  /** For `eventId`: more failed photos remain (a call handles a bounded batch); call again with `failedBefore`. */
  more: boolean;
  /** For `eventId`: the cut-off this run uses; null for `photoIds`. */
  failedBefore: string | null;
}

export type CreateUserRequest = z.input<typeof createUserRequest>;

/** GET /api/users: a photographer's row names the event of their newest assignment (spec §3 latestEventName). */
export type UserListItem = PublicUser & { latestEventName: string | null };

/** GET /api/users: a page of accounts, newest first ('Cargar más' asks for the next). */
export interface UserListPage {
  users: UserListItem[];
  /** Pass back as `cursor` for the next page; null on the last. */
  cursor: string | null;
}

/** The roles an admin can give in the edit dialog (spec §3 users). */
// Athletes are listed too (they sign up themselves); without their role here the edit dialog showed
// an athlete as 'Admin', the first option, and could not save them unchanged.
export const editableRoles = ["admin", "photographer", "user", "athlete"] as const;

export type UpdateUserRequest = z.input<typeof updateUserRequest>;

/** spec §3 photographer_event_assignments.role */
export const assignmentRoles = ["photographer", "lead_photographer", "assistant"] as const;
export type AssignmentRole = (typeof assignmentRoles)[number];

export type AssignEventRequest = z.input<typeof assignEventRequest>;

/** One event assigned to a photographer (GET /api/users/{id}/events), newest assignment first. */
export interface EventAssignmentDto {
  assignmentId: string;
  eventId: number;
  eventName: string;
  eventLocation: string;
  role: AssignmentRole;
  notes: string | null;
  assignedAt: string;
}

export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;

export type SetUserPasswordRequest = z.infer<typeof setUserPasswordRequest>;

/**
 * A password change ends every session issued before it; `token` is a fresh one for the session
 * that made the change (absent when an admin set someone else's password).
 */
export interface PasswordChangedResponse {
  success: true;
  token?: string;
}

/** GET /api/settings (spec §3 system_settings). */
export interface SystemSettingsDto {
  photoPrice: number;
  currency: string;
  currencySymbol: string;
  maxDownloads: number;
  downloadValidityDays: number;
  updatedAt: string | null;
}

/** GET /api/settings as the browser reads it: the stored settings and the payment support number, if set. */
export interface PublicSettingsDto extends SystemSettingsDto {
  supportPhone: string | null;
}

/** POST /api/admin/reset-sales: monthly sales count from this time on. */
export interface ResetSalesResponse {
  success: true;
  salesResetAt: string;
}

/** GET /api/cloud/test (spec §3 storage status), about the originals bucket. */
export interface StorageStatusDto {
  connected: boolean;
  bucketName: string;
  /** Files and bytes under the photos prefix, counted up to a page cap. */
  totalFiles: number;
  totalSize: number;
  /** The cap was reached: the totals are a lower bound. */
  truncated: boolean;
  /** "iam-role" on AWS (the function's own role), "local" for the embedded store. */
  credentialsType: "iam-role" | "local";
  credentialsConfigured: boolean;
  error: string | null;
  /** Where the data lives and how a local event moves to AWS (/cloud-storage-config). */
  location: StorageLocationDto;
}

/**
 * Where this deployment keeps its data, and the command that copies a stopped local runtime's data
 * to AWS (`npm run migrate`, docs/deploy.md): run on the machine that holds the data, never by the API.
 */
export interface StorageLocationDto {
  runtime: "local" | "aws";
  /** The local runtime's DATA_DIR (absolute); null on AWS. */
  dataDir: string | null;
  /** The AWS region; null locally. */
  region: string | null;
  tableName: string;
  buckets: { originals: string; derived: string };
  /** Web copies, thumbnails and previews, counted as the originals are (up to the same cap). */
  derivedFiles: number;
  derivedSize: number;
  derivedTruncated: boolean;
  migrateCommand: string;
}

/** POST /api/demo/migrate-to-cloud: the migration runs from the command line (spec departure), so this only says how. */
export interface MigrateToCloudResponse {
  migrated: false;
  message: string;
  migrateCommand: string;
}
