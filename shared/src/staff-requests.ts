import { z } from "zod";
import { assignmentRoles, editableRoles, idParam, newPassword, password } from "./api";
import { bibPatternProblem } from "./bib-format";
import { limits } from "./constants";
import { messages } from "./messages";

/**
 * What the server checks of requests only sign-in, accounts and organizers send: signing in,
 * users and passwords, events and their settings, uploads and reprocessing. Not in the package's
 * index (`@dorsal/shared/staff-requests`): every zod schema is built where its module loads, and
 * through the index each would be built on every visitor's first load of /search, which never sends
 * one (issue 20). Their types stay in api.ts, where the screens and handlers find them.
 */

export const loginRequest = z.object({
  email: z.string().trim().toLowerCase().email(),
  password: password.min(1),
});

export const createEventRequest = z.object({
  name: z.string().trim().min(1).max(200),
  date: z.string({ error: messages.dateRequired }).trim().min(1, messages.dateRequired).date(messages.dateRequired),
  location: z.string().trim().max(200).default(""),
  expectedParticipants: z.coerce.number().int().min(0).max(1_000_000).default(0),
  status: z.enum(["active", "processing", "completed"]).default("active"),
  /** Left out of the public event lists (the preflight's probe event); admins still see it. */
  unlisted: z.boolean().default(false),
});

/** DELETE /api/events/{id}: the calling admin's own password confirms the deletion (spec §5, §6). */
export const deleteEventRequest = z.object({
  adminPassword: z
    .string({ error: messages.adminPasswordRequired })
    .min(1, messages.adminPasswordRequired)
    .max(200, messages.eventDeleteRefused),
});

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

/** An upload's id (shared/src/uploads.ts) as the server makes it. */
export const uploadIdParam = z.string().regex(/^[a-z0-9]{10,40}$/);

/** The file of an upload a photo is sent for (the browser's id for it), so a retried file replaces its earlier try. */
export const uploadFileRef = z.object({
  uploadId: uploadIdParam,
  fileKey: z.string().min(1).max(500),
});

/**
 * Starts one upload the browser sends straight to storage (Uppy's `@uppy/aws-s3`): a new photo,
 * or the ZIP of a batch made by `POST /api/photos/zip-batches`. The answer names the object key
 * and signs its first request: a single PUT, or the CreateMultipartUpload of a multipart upload.
 */
export const uploadTargetRequest = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("photo"),
    eventId: idParam,
    filename: z.string().trim().min(1).max(255),
    contentType: z.string().max(100).default("application/octet-stream"),
    /** Checked against the photo limit by the server, which answers 413 above it. */
    size: z.number().int().positive(),
    forceDuplicates: z.boolean().optional(),
    multipart: z.boolean(),
    /** The upload screen's run this photo belongs to, followed by its uploader. */
    upload: uploadFileRef.optional(),
  }),
  z.object({
    kind: z.literal("zip"),
    batchId: z.string().regex(/^[a-z0-9]{10,40}$/),
    multipart: z.boolean(),
  }),
]);

/** Signs a later request of a multipart upload the caller started (its key names their own photo or ZIP). */
const uploadOfKey = { key: z.string().min(1).max(1024), uploadId: z.string().min(1).max(1024) };

export const uploadSignRequest = z.discriminatedUnion("step", [
  z.object({ step: z.literal("part"), ...uploadOfKey, partNumber: z.number().int().min(1).max(10_000) }),
  z.object({ step: z.literal("list"), ...uploadOfKey }),
  z.object({ step: z.literal("complete"), ...uploadOfKey }),
  z.object({ step: z.literal("abort"), ...uploadOfKey }),
]);

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
    /**
     * What a whole read must look like (bib-format.ts). Optional so a client that predates it (or
     * leaves it out) keeps the event's stored format; stored configs from before it read as digits only.
     */
    bibPattern: z
      .string()
      .optional()
      .superRefine((pattern, context) => {
        if (pattern === undefined) return;
        const problem = bibPatternProblem(pattern);
        if (problem) context.addIssue({ code: "custom", message: problem });
      }),
  })
  .refine((config) => config.minDigits <= config.maxDigits, {
    message: "El mínimo de dígitos no puede superar el máximo",
    path: ["minDigits"],
  });

/** Chosen by the client for a run of multipart uploads; sent again to resume it (spec §4). */
export const uploadSessionId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);

/**
 * Starts a ZIP import whose bytes the browser sends straight to storage (any size up to the
 * configured maximum): the answer names the object key and a presigned PUT for it.
 */
export const zipBatchRequest = z.object({
  eventId: idParam,
  filename: z
    .string()
    .trim()
    .min(1, messages.zipInvalidName)
    .max(255)
    .regex(/\.zip$/i, messages.zipInvalidName),
  size: z.number().int().positive(messages.zipInvalidName),
});

/** POST /api/admin/failed-photos/rerun: some photos, or every failed photo of one event. */
export const rerunFailedRequest = z.union([
  z.object({
    photoIds: z
      .array(z.string().regex(/^[a-z0-9]{10,40}$/))
      .min(1)
      .max(100),
  }),
  z.object({
    eventId: idParam,
    /** Only photos that failed before this time: pass back the response's, so re-failures are not re-run in a loop. */
    failedBefore: z.iso.datetime().optional(),
  }),
]);

/** POST /api/users (spec §2.7 'Crear Usuario Fotógrafo'): only photographers are created here. */
export const createUserRequest = z.object({
  name: z.string().trim().min(1).max(200),
  email: z.string().trim().toLowerCase().email(),
  password: newPassword,
  role: z.literal("photographer").default("photographer"),
  assignedEventId: idParam,
});

/** PUT /api/users/{id} (spec §5 'Edit user'): name, email and role, all required. */
export const updateUserRequest = z.object({
  name: z.string({ error: messages.allFieldsRequired }).trim().min(1, messages.allFieldsRequired).max(200),
  email: z
    .string({ error: messages.allFieldsRequired })
    .trim()
    .toLowerCase()
    .min(1, messages.allFieldsRequired)
    .pipe(z.email(messages.emailInvalid)),
  role: z.enum(editableRoles, { error: messages.allFieldsRequired }),
});

/** POST /api/users/{id}/events: the event is required ('Debe seleccionar un evento'). */
export const assignEventRequest = z.object({
  eventId: z.coerce
    .number({ error: messages.selectEventToAssign })
    .int(messages.selectEventToAssign)
    .positive(messages.selectEventToAssign),
  role: z.enum(assignmentRoles).default("photographer"),
  notes: z.string().trim().max(500).default(""),
});

/** POST /api/admin/change-password (spec §5: at least 6 characters). */
export const changePasswordRequest = z.object({
  currentPassword: password.min(1),
  newPassword,
});

/** PUT /api/users/{id}/password: an admin sets another account's password. */
export const setUserPasswordRequest = z.object({ newPassword });
