import { imageContentType, limits, type UploadSignRequest } from "@dorsal/shared";
import { photosApi } from "@dorsal/shared/contract/photos";
import AwsS3, { type AwsBody, type AwsS3Options } from "@uppy/aws-s3";
import Uppy, { type UppyFile } from "@uppy/core";
import GoldenRetriever from "@uppy/golden-retriever";
import { ApiError, apiCall, NetworkError } from "../../../lib/api-fetch";
import { compressForPhone, jpegName } from "./compression";
import { partSizeBytes, uploadsAtOnce, usesMultipart } from "./upload-settings";

/**
 * The browser's uploader: Uppy with `@uppy/aws-s3` sends every photo straight to the object
 * store — one presigned PUT for small photos, a multipart upload in 5 MB parts for big ones —
 * with every S3 request signed by the API (`/api/photos/uploads`, `/api/photos/uploads/sign`),
 * a bounded number of files at a time. `@uppy/golden-retriever` keeps the files and each multipart
 * upload's key and id in IndexedDB, so a closed tab or a dropped connection resumes from the
 * parts the store already has (ListParts) instead of starting over.
 */

export type PhotoMeta = {
  eventId?: number;
  /** The upload ("subida") the file was chosen for: its uploader follows it on the screen. */
  uploadId?: string;
  /** Spec §9's phone compression; off when the uploader asks to send the originals. */
  compress?: boolean;
};
export type PhotoUppy = Uppy<PhotoMeta, AwsBody>;
export type PhotoFile = UppyFile<PhotoMeta, AwsBody>;
type SignRequest = Extract<AwsS3Options<PhotoMeta, AwsBody>, { signRequest: unknown }>["signRequest"];
export type S3Request = Parameters<SignRequest>[0];

export const uploadCancelledMessage = "Subida cancelada";
export const uploadNetworkErrorMessage = "Error de red durante la subida";
export const uploadUnknownErrorMessage = "Error desconocido durante la subida";
export const uploadTooLargeMessage =
  "Error 413: Archivos demasiado grandes. Intenta subir fotos más pequeñas o reduce la cantidad.";

/** The key Uppy asks to sign before the API has chosen the real one: it names the file, nothing more. */
const pendingPrefix = "pendiente:";

function multipartStep(request: S3Request & { uploadId: string }): UploadSignRequest {
  const { key, uploadId } = request;
  if (request.method === "PUT" && "partNumber" in request) {
    return { step: "part", key, uploadId, partNumber: request.partNumber };
  }
  if (request.method === "GET") return { step: "list", key, uploadId };
  if (request.method === "POST") return { step: "complete", key, uploadId };
  return { step: "abort", key, uploadId };
}

/**
 * Signs a later request (part, list, complete, abort) of a multipart upload already started: the
 * same for a photo and for a ZIP, whose key the API checks is the caller's own.
 */
export async function signUploadStep(step: UploadSignRequest): Promise<{ url: string }> {
  const { url } = await apiCall(photosApi.signUpload, { body: step });
  return { url };
}

/** The same, for a request Uppy is about to make. */
export const signMultipartStep = (request: S3Request & { uploadId: string }) => signUploadStep(multipartStep(request));

async function signRequest(uppy: PhotoUppy, request: S3Request) {
  if ("uploadId" in request) return signMultipartStep(request);
  if (request.method === "DELETE" || !request.key.startsWith(pendingPrefix)) {
    // Stored originals belong to the pipeline: the browser never deletes or overwrites one.
    throw new Error(uploadUnknownErrorMessage);
  }
  const file = uppy.getFile(request.key.slice(pendingPrefix.length));
  const target = await apiCall(photosApi.uploadTarget, {
    body: {
      kind: "photo",
      eventId: file.meta.eventId,
      filename: file.name ?? "foto.jpg",
      // A file the picker let through is an image by its type or name; the server refuses anything else.
      contentType: imageContentType({ name: file.name ?? "", type: file.type ?? "" }) ?? "application/octet-stream",
      size: file.size ?? 0,
      multipart: request.method === "POST",
      // Uppy's id for the file stays the same on a retry, which then replaces the earlier try.
      ...(file.meta.uploadId ? { upload: { uploadId: file.meta.uploadId, fileKey: file.id } } : {}),
    },
  });
  return { url: target.url, key: target.key, headers: target.headers };
}

/**
 * The spec §8 text for a failed photo, whatever layer failed. Uppy's errors are told apart by
 * their fields, not their class names, which the production build minifies.
 */
export function uploadErrorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.status === 413 ? uploadTooLargeMessage : error.message;
  if (error instanceof NetworkError) return uploadNetworkErrorMessage;
  const failure = error as {
    code?: unknown;
    status?: unknown;
    serviceCode?: unknown;
    isNetworkError?: unknown;
    cause?: { isNetworkError?: unknown };
  } | null;
  if (failure?.code === "NETWORK" || failure?.isNetworkError === true || failure?.cause?.isNetworkError === true) {
    return uploadNetworkErrorMessage;
  }
  if (typeof failure?.status === "number" && failure.status > 0) {
    if (failure.status === 413) return uploadTooLargeMessage;
    return `Error ${failure.status}: ${typeof failure.serviceCode === "string" ? failure.serviceCode : "S3"}`;
  }
  return uploadUnknownErrorMessage;
}

export function createPhotoUploader(options: { phone: boolean }): PhotoUppy {
  const uppy: PhotoUppy = new Uppy<PhotoMeta, AwsBody>({
    id: "dorsal-fotos",
    autoProceed: false,
    allowMultipleUploadBatches: true,
    restrictions: { maxFileSize: limits.photoMaxBytes },
  });
  uppy.use(AwsS3<PhotoMeta, AwsBody>, {
    limit: uploadsAtOnce(options.phone),
    shouldUseMultipart: (file) => usesMultipart(file.size ?? 0),
    getChunkSize: () => partSizeBytes,
    allowedMetaFields: false,
    generateObjectKey: (file) => `${pendingPrefix}${file.id}`,
    signRequest: (request) => signRequest(uppy, request),
  });
  uppy.use(GoldenRetriever<PhotoMeta, AwsBody>);
  uppy.addPreProcessor(async (fileIds) => {
    for (const id of fileIds) {
      const file = uppy.getFile(id);
      // A multipart upload already under way must keep its bytes: its parts are cut from them.
      if (!file.meta.compress || !(file.data instanceof File) || file.s3Multipart) continue;
      const compressed = await compressForPhone(file.data);
      if (compressed === file.data) continue;
      uppy.setFileState(id, {
        data: compressed,
        size: compressed.size,
        type: compressed.type,
        name: jpegName(file.name ?? compressed.name),
        meta: { ...file.meta, name: compressed.name, type: compressed.type },
      });
    }
  });
  return uppy;
}
