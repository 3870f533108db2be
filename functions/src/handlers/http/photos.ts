import {
  acceptSuggestionRequest,
  bibNumber,
  idParam,
  manualBibMessages,
  messages,
  presignRequest,
  searchQuery,
  startUploadRequest,
  uploadHistoryQuery,
  uploadIdParam,
  uploadSignRequest,
  uploadTargetRequest,
  zipBatchRequest,
} from "@dorsal/shared";
import { z } from "zod";
import { athleteDownload } from "../../app/athletes";
import { acceptSuggestion, addManualBib, listEventPhotos, reindexEvent, removeBib } from "../../app/bib-index";
import { signUploadStep, startDirectUpload } from "../../app/direct-uploads";
import { removeDuplicatePhoto } from "../../app/duplicates";
import { invalid } from "../../app/errors";
import { getMyUpload, listMyUploads, startUpload } from "../../app/my-uploads";
import { getPhoto, searchByBib } from "../../app/search";
import { assertCanUpload, presignUploads, uploadFiles } from "../../app/uploads";
import { createZipBatch, getZipBatchStatus, uploadZip } from "../../app/zip-batches";
import { getContainer } from "../../compose";
import { createHttpHandler, type RouteContext, reply, route } from "../../http/handler";

const uploaders = ["admin", "photographer"] as const;
const photoId = z.string().regex(/^[a-z0-9]{10,40}$/);
const pageQuery = z.object({
  filter: z.enum(["todas", "sin-dorsal"]).default("todas"),
  cursor: z.string().max(2000).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(48),
});

/** Chosen by the client for a run of uploads; sent again to resume it (spec §4). */
const uploadSessionId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);

/** The spec's multipart form (photos, eventId, optional forceDuplicates and sessionId), as every form endpoint takes it. */
function uploadForm({
  deps,
  session,
  form,
}: Pick<RouteContext<unknown, unknown, unknown>, "deps" | "session" | "form">) {
  const eventId = idParam.safeParse(form?.fields.eventId);
  if (!eventId.success) throw invalid(messages.selectEvent);
  const files = (form?.files ?? []).filter((file) => file.field === "photos" && file.data.length > 0);
  // Duplicates are found by the pipeline (it hashes each original), so they show in each photo's status later.
  const forceDuplicates = form?.fields.forceDuplicates === "true";
  const sessionId = uploadSessionId.safeParse(form?.fields.sessionId);
  return uploadFiles(deps, session as NonNullable<typeof session>, eventId.data, files, {
    forceDuplicates,
    ...(sessionId.success ? { sessionId: sessionId.data } : {}),
  });
}

export const handler = createHttpHandler(
  {
    "POST /api/photos/presign": route({
      access: uploaders,
      body: presignRequest,
      run: ({ deps, session, body }) => presignUploads(deps, session as NonNullable<typeof session>, body),
    }),
    "POST /api/photos/upload": route({ access: uploaders, multipart: true, run: uploadForm }),
    // The spec's fallback when the upload call fails: the same form, the same checks.
    "POST /api/emergency/mobile-upload": route({ access: uploaders, multipart: true, run: uploadForm }),
    "POST /api/photos/resume-upload": route({
      access: uploaders,
      multipart: true,
      run: (context) => {
        if (!uploadSessionId.safeParse(context.form?.fields.sessionId).success) {
          throw invalid(messages.noSessionToResume);
        }
        if (!idParam.safeParse(context.form?.fields.eventId).success) throw invalid(messages.selectEventToResume);
        return uploadForm(context);
      },
    }),
    "POST /api/photos/uploads": route({
      access: uploaders,
      body: uploadTargetRequest,
      run: ({ deps, session, body }) => startDirectUpload(deps, session as NonNullable<typeof session>, body),
    }),
    "POST /api/photos/uploads/sign": route({
      access: uploaders,
      body: uploadSignRequest,
      run: ({ deps, session, body }) => signUploadStep(deps, session as NonNullable<typeof session>, body),
    }),
    "POST /api/photos/upload-zip": route({
      access: uploaders,
      // The whole body arrives in one request (API Gateway: at most 10 MB); big ZIPs use zip-batches.
      multipart: true,
      run: ({ deps, session, form }) => {
        const eventId = idParam.safeParse(form?.fields.eventId);
        if (!eventId.success) throw invalid(messages.selectEvent);
        const file = form?.files.find((candidate) => candidate.field === "zipFile" && candidate.data.length > 0);
        if (!file) throw invalid(messages.zipInvalidName);
        return uploadZip(deps, session as NonNullable<typeof session>, eventId.data, file);
      },
    }),
    "POST /api/photos/zip-batches": route({
      access: uploaders,
      body: zipBatchRequest,
      run: ({ deps, session, body }) => createZipBatch(deps, session as NonNullable<typeof session>, body),
    }),
    "GET /api/photos/batch-status/{batchId}": route({
      access: uploaders,
      params: z.object({ batchId: photoId }),
      run: ({ deps, session, params }) =>
        getZipBatchStatus(deps, session as NonNullable<typeof session>, params.batchId),
    }),
    // The caller's own uploads: every role sees only what it uploaded (someone else's is 404).
    "POST /api/photos/my-uploads": route({
      access: uploaders,
      body: startUploadRequest,
      run: async ({ deps, session, body }) =>
        reply(201, await startUpload(deps, session as NonNullable<typeof session>, body)),
    }),
    "GET /api/photos/my-uploads": route({
      access: uploaders,
      query: uploadHistoryQuery,
      run: ({ deps, session, query }) => listMyUploads(deps, session as NonNullable<typeof session>, query.limit),
    }),
    "GET /api/photos/my-uploads/{uploadId}": route({
      access: uploaders,
      params: z.object({ uploadId: uploadIdParam }),
      run: ({ deps, session, params }) => getMyUpload(deps, session as NonNullable<typeof session>, params.uploadId),
    }),
    "GET /api/photos/search": route({
      access: "public",
      query: searchQuery,
      run: ({ deps, query, session }) => searchByBib(deps, query.eventId, query.dorsalNumber, session),
    }),
    "GET /api/athlete/photos/{photoId}/download": route({
      access: ["athlete"],
      params: z.object({ photoId }),
      // JSON rather than a 302: a fetch carrying the Authorization header would carry it on to the
      // signed storage URL too, and storage refuses a request signed twice.
      run: async ({ deps, session, params }) => ({ url: await athleteDownload(deps, session, params.photoId) }),
    }),
    "GET /api/photos/{id}": route({
      access: uploaders,
      params: z.object({ id: photoId }),
      run: async ({ deps, session, params }) => {
        const photo = await getPhoto(deps, params.id);
        // A photographer sees only the photos of the event assigned to them.
        await assertCanUpload(deps, session as NonNullable<typeof session>, photo.eventId);
        return photo;
      },
    }),
    "GET /api/events/{id}/photos": route({
      access: ["admin"],
      params: z.object({ id: idParam }),
      query: pageQuery,
      run: ({ deps, params, query }) =>
        listEventPhotos(deps, params.id, { unbibbed: query.filter === "sin-dorsal", ...query }),
    }),
    "POST /api/events/{id}/reindex": route({
      access: ["admin"],
      params: z.object({ id: idParam }),
      body: z.object({ cursor: z.string().max(2000).nullish() }),
      // A page per call keeps every request well inside API Gateway's 29 s; the browser follows the cursor.
      run: ({ deps, params, body }) => reindexEvent(deps, params.id, { cursor: body.cursor ?? undefined, limit: 100 }),
    }),
    "POST /api/events/{id}/photos/{photoId}/bibs": route({
      access: ["admin"],
      params: z.object({ id: idParam, photoId }),
      // Judged against the event's own bib settings in addManualBib; here only bounded.
      body: z.object({ dorsalNumber: z.string({ error: manualBibMessages.required }).max(200) }),
      run: ({ deps, params, body }) => addManualBib(deps, params.id, params.photoId, body.dorsalNumber),
    }),
    // One of the listed bibs a read off the start list may be; it becomes a manual bib.
    "POST /api/events/{id}/photos/{photoId}/suggestions": route({
      access: ["admin"],
      params: z.object({ id: idParam, photoId }),
      body: acceptSuggestionRequest,
      run: ({ deps, params, body }) => acceptSuggestion(deps, params.id, params.photoId, body.read, body.dorsalNumber),
    }),
    // Only a copy of a photo the event already has; anything else is 409.
    "DELETE /api/events/{id}/photos/{photoId}": route({
      access: ["admin"],
      params: z.object({ id: idParam, photoId }),
      run: ({ deps, params }) => removeDuplicatePhoto(deps, params.id, params.photoId),
    }),
    "DELETE /api/events/{id}/photos/{photoId}/bibs/{dorsal}": route({
      access: ["admin"],
      params: z.object({ id: idParam, photoId, dorsal: bibNumber }),
      run: ({ deps, params }) => removeBib(deps, params.id, params.photoId, params.dorsal),
    }),
  },
  getContainer,
);
