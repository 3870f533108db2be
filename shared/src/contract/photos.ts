import { z } from "zod";
import {
  bibNumber,
  idParam,
  type PhotoDto,
  type PhotoPage,
  type PresignResponse,
  photoIdParam,
  type ReindexResponse,
  type UploadResponse,
  type UploadSignature,
  type UploadTarget,
  type ZipBatchCreated,
  type ZipBatchStatusResponse,
  type ZipUploadResponse,
} from "../api";
import { manualBibMessages } from "../bibs";
import { acceptSuggestionRequest } from "../participants";
import {
  presignRequest,
  uploadIdParam,
  uploadSignRequest,
  uploadTargetRequest,
  zipBatchRequest,
} from "../staff-requests";
import {
  type RemoveDuplicateResponse,
  startUploadRequest,
  type UploadDetailDto,
  type UploadHistoryDto,
  type UploadSummaryDto,
  uploadHistoryQuery,
} from "../uploads";
import { endpoint } from "./endpoint";
import { photosPublicApi } from "./photos-public";

const uploaders = ["admin", "photographer"] as const;
const eventParams = z.object({ id: idParam });
const eventPhotoParams = z.object({ id: idParam, photoId: photoIdParam });

/** An event's photos for review, a page at a time; 'sin-dorsal' is the server's own filter. */
const eventPhotosQuery = z.object({
  filter: z.enum(["todas", "sin-dorsal"]).default("todas"),
  cursor: z.string().max(2000).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(48),
});

/** Photos: uploads of every kind, bib search, and the organizer's bib review (the `photos` function). */
export const photosApi = {
  presign: endpoint<PresignResponse>()({
    method: "POST",
    path: "/api/photos/presign",
    access: uploaders,
    body: presignRequest,
  }),
  // The spec's multipart form (photos, eventId, optional forceDuplicates and sessionId), as every form endpoint takes it.
  upload: endpoint<UploadResponse>()({
    method: "POST",
    path: "/api/photos/upload",
    access: uploaders,
    multipart: true,
  }),
  // The spec's fallback when the upload call fails: the same form, the same checks.
  emergencyUpload: endpoint<UploadResponse>()({
    method: "POST",
    path: "/api/emergency/mobile-upload",
    access: uploaders,
    multipart: true,
  }),
  // The same form again, where sessionId is required: what already arrived under it is skipped.
  resumeUpload: endpoint<UploadResponse>()({
    method: "POST",
    path: "/api/photos/resume-upload",
    access: uploaders,
    multipart: true,
  }),
  uploadTarget: endpoint<UploadTarget>()({
    method: "POST",
    path: "/api/photos/uploads",
    access: uploaders,
    body: uploadTargetRequest,
  }),
  signUpload: endpoint<UploadSignature>()({
    method: "POST",
    path: "/api/photos/uploads/sign",
    access: uploaders,
    body: uploadSignRequest,
  }),
  // The whole body arrives in one request (API Gateway: at most 10 MB); big ZIPs use zip-batches.
  uploadZip: endpoint<ZipUploadResponse>()({
    method: "POST",
    path: "/api/photos/upload-zip",
    access: uploaders,
    multipart: true,
  }),
  createZipBatch: endpoint<ZipBatchCreated>()({
    method: "POST",
    path: "/api/photos/zip-batches",
    access: uploaders,
    body: zipBatchRequest,
  }),
  zipBatchStatus: endpoint<ZipBatchStatusResponse>()({
    method: "GET",
    path: "/api/photos/batch-status/{batchId}",
    access: uploaders,
    params: z.object({ batchId: photoIdParam }),
  }),
  // The caller's own uploads: every role sees only what it uploaded (someone else's is 404).
  startUpload: endpoint<UploadSummaryDto>()({
    method: "POST",
    path: "/api/photos/my-uploads",
    access: uploaders,
    body: startUploadRequest,
  }),
  myUploads: endpoint<UploadHistoryDto>()({
    method: "GET",
    path: "/api/photos/my-uploads",
    access: uploaders,
    query: uploadHistoryQuery,
  }),
  myUpload: endpoint<UploadDetailDto>()({
    method: "GET",
    path: "/api/photos/my-uploads/{uploadId}",
    access: uploaders,
    params: z.object({ uploadId: uploadIdParam }),
  }),
  search: photosPublicApi.search,
  athleteDownload: photosPublicApi.athleteDownload,
  get: endpoint<PhotoDto>()({
    method: "GET",
    path: "/api/photos/{id}",
    access: uploaders,
    params: z.object({ id: photoIdParam }),
  }),
  eventPhotos: endpoint<PhotoPage>()({
    method: "GET",
    path: "/api/events/{id}/photos",
    access: ["admin"],
    params: eventParams,
    query: eventPhotosQuery,
  }),
  // A page per call keeps every request well inside API Gateway's 29 s; the browser follows the cursor.
  reindex: endpoint<ReindexResponse>()({
    method: "POST",
    path: "/api/events/{id}/reindex",
    access: ["admin"],
    params: eventParams,
    body: z.object({ cursor: z.string().max(2000).nullish() }),
  }),
  addBib: endpoint<PhotoDto>()({
    method: "POST",
    path: "/api/events/{id}/photos/{photoId}/bibs",
    access: ["admin"],
    params: eventPhotoParams,
    // Judged against the event's own bib settings by the server; here only bounded.
    body: z.object({ dorsalNumber: z.string({ error: manualBibMessages.required }).max(200) }),
  }),
  // One of the listed bibs a read off the start list may be; it becomes a manual bib.
  acceptSuggestion: endpoint<PhotoDto>()({
    method: "POST",
    path: "/api/events/{id}/photos/{photoId}/suggestions",
    access: ["admin"],
    params: eventPhotoParams,
    body: acceptSuggestionRequest,
  }),
  // Only a copy of a photo the event already has; anything else is 409.
  removeDuplicate: endpoint<RemoveDuplicateResponse>()({
    method: "DELETE",
    path: "/api/events/{id}/photos/{photoId}",
    access: ["admin"],
    params: eventPhotoParams,
  }),
  removeBib: endpoint<PhotoDto>()({
    method: "DELETE",
    path: "/api/events/{id}/photos/{photoId}/bibs/{dorsal}",
    access: ["admin"],
    params: eventPhotoParams.extend({ dorsal: bibNumber }),
  }),
};
