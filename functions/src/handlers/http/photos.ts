import { idParam, messages } from "@dorsal/shared";
import { api } from "@dorsal/shared/contract";
import { uploadSessionId } from "@dorsal/shared/staff-requests";
import { athleteDownload } from "../../app/athletes";
import { acceptSuggestion, addManualBib, listEventPhotos, reindexEvent, removeBib } from "../../app/bib-index";
import type { Deps } from "../../app/deps";
import { signUploadStep, startDirectUpload } from "../../app/direct-uploads";
import { removeDuplicatePhoto } from "../../app/duplicates";
import { invalid } from "../../app/errors";
import { getMyUpload, listMyUploads, startUpload } from "../../app/my-uploads";
import { getPhoto, searchByBib } from "../../app/search";
import type { SessionClaims } from "../../app/tokens";
import { assertCanUpload, presignUploads, uploadFiles } from "../../app/uploads";
import { createZipBatch, getZipBatchStatus, uploadZip } from "../../app/zip-batches";
import { getContainer } from "../../compose";
import { createHttpHandler, reply } from "../../http/handler";
import type { MultipartForm } from "../../http/multipart";

interface FormContext {
  deps: Deps;
  session: SessionClaims;
  form: MultipartForm;
}

/** The spec's multipart form (photos, eventId, optional forceDuplicates and sessionId), as every form endpoint takes it. */
function uploadForm({ deps, session, form }: FormContext) {
  const eventId = idParam.safeParse(form.fields.eventId);
  if (!eventId.success) throw invalid(messages.selectEvent);
  const files = form.files.filter((file) => file.field === "photos" && file.data.length > 0);
  // Duplicates are found by the pipeline (it hashes each original), so they show in each photo's status later.
  const forceDuplicates = form.fields.forceDuplicates === "true";
  const sessionId = uploadSessionId.safeParse(form.fields.sessionId);
  return uploadFiles(deps, session, eventId.data, files, {
    forceDuplicates,
    ...(sessionId.success ? { sessionId: sessionId.data } : {}),
  });
}

export const handler = createHttpHandler(
  api.photos,
  {
    presign: ({ deps, session, body }) => presignUploads(deps, session, body),
    upload: uploadForm,
    emergencyUpload: uploadForm,
    resumeUpload: (context) => {
      if (!uploadSessionId.safeParse(context.form.fields.sessionId).success) throw invalid(messages.noSessionToResume);
      if (!idParam.safeParse(context.form.fields.eventId).success) throw invalid(messages.selectEventToResume);
      return uploadForm(context);
    },
    uploadTarget: ({ deps, session, body }) => startDirectUpload(deps, session, body),
    signUpload: ({ deps, session, body }) => signUploadStep(deps, session, body),
    uploadZip: ({ deps, session, form }) => {
      const eventId = idParam.safeParse(form.fields.eventId);
      if (!eventId.success) throw invalid(messages.selectEvent);
      const file = form.files.find((candidate) => candidate.field === "zipFile" && candidate.data.length > 0);
      if (!file) throw invalid(messages.zipInvalidName);
      return uploadZip(deps, session, eventId.data, file);
    },
    createZipBatch: ({ deps, session, body }) => createZipBatch(deps, session, body),
    zipBatchStatus: ({ deps, session, params }) => getZipBatchStatus(deps, session, params.batchId),
    startUpload: async ({ deps, session, body }) => reply(201, await startUpload(deps, session, body)),
    myUploads: ({ deps, session, query }) => listMyUploads(deps, session, query.limit),
    myUpload: ({ deps, session, params }) => getMyUpload(deps, session, params.uploadId),
    search: ({ deps, query, session }) => searchByBib(deps, query.eventId, query.dorsalNumber, session),
    athleteDownload: async ({ deps, session, params }) => ({
      url: await athleteDownload(deps, session, params.photoId),
    }),
    get: async ({ deps, session, params }) => {
      const photo = await getPhoto(deps, params.id);
      // A photographer sees only the photos of the event assigned to them.
      await assertCanUpload(deps, session, photo.eventId);
      return photo;
    },
    eventPhotos: ({ deps, params, query }) =>
      listEventPhotos(deps, params.id, { unbibbed: query.filter === "sin-dorsal", ...query }),
    // A page per call keeps every request well inside API Gateway's 29 s; the browser follows the cursor.
    reindex: ({ deps, params, body }) =>
      reindexEvent(deps, params.id, { cursor: body.cursor ?? undefined, limit: 100 }),
    // Judged against the event's own bib settings in addManualBib; the contract only bounds it.
    addBib: ({ deps, params, body }) => addManualBib(deps, params.id, params.photoId, body.dorsalNumber),
    acceptSuggestion: ({ deps, params, body }) =>
      acceptSuggestion(deps, params.id, params.photoId, body.read, body.dorsalNumber),
    removeDuplicate: ({ deps, params }) => removeDuplicatePhoto(deps, params.id, params.photoId),
    removeBib: ({ deps, params }) => removeBib(deps, params.id, params.photoId, params.dorsal),
  },
  getContainer,
);
