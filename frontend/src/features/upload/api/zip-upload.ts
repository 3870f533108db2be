import { limits, type ZipBatchRequest } from "@dorsal/shared";
import { photosApi } from "@dorsal/shared/contract/photos";
import AwsS3, { type AwsBody } from "@uppy/aws-s3";
import Uppy from "@uppy/core";
import { apiCall } from "../../../lib/api-fetch";
import { type S3Request, signMultipartStep, signUploadStep, uploadUnknownErrorMessage } from "./direct-upload";
import { partSizeBytes, usesMultipart } from "./upload-settings";

/**
 * A ZIP goes straight to the object store like a photo (spec §2.5): `POST /api/photos/zip-batches`
 * makes the batch and signs one PUT of its archive; a big ZIP goes instead as a multipart upload
 * (`/api/photos/uploads` with `kind: "zip"`, then `/api/photos/uploads/sign` per request), through
 * the same Uppy S3 uploader the photos use. Extraction starts on the server once the object lands.
 */

export function createZipBatch(request: ZipBatchRequest, signal?: AbortSignal) {
  return apiCall(photosApi.createZipBatch, { body: request, signal });
}

export function getZipBatchStatus(batchId: string, signal?: AbortSignal) {
  return apiCall(photosApi.zipBatchStatus, { params: { batchId }, signal });
}

/** The batch the ZIP belongs to, with the single PUT the API already signed for it. */
export type ZipMeta = {
  batchId?: string;
  putUrl?: string;
  putKey?: string;
  putHeaders?: Record<string, string>;
};
export type ZipUppy = Uppy<ZipMeta, AwsBody>;

const pendingPrefix = "zip-pendiente:";

async function signZipRequest(uppy: ZipUppy, request: S3Request) {
  if ("uploadId" in request) return signMultipartStep(request);
  if (request.method === "DELETE" || !request.key.startsWith(pendingPrefix)) {
    throw new Error(uploadUnknownErrorMessage);
  }
  const { meta } = uppy.getFile(request.key.slice(pendingPrefix.length));
  if (!meta.batchId) throw new Error(uploadUnknownErrorMessage);
  if (request.method === "PUT" && meta.putUrl && meta.putKey) {
    return { url: meta.putUrl, key: meta.putKey, headers: meta.putHeaders ?? {} };
  }
  const target = await apiCall(photosApi.uploadTarget, {
    body: { kind: "zip", batchId: meta.batchId, multipart: request.method === "POST" },
  });
  return { url: target.url, key: target.key, headers: target.headers };
}

/** One uploader per ZIP sent: it holds a single file and is destroyed when that upload ends. */
export function createZipUploader(): ZipUppy {
  const uppy: ZipUppy = new Uppy<ZipMeta, AwsBody>({
    id: "dorsal-zip",
    autoProceed: false,
    restrictions: { maxFileSize: limits.zipMaxBytes, maxNumberOfFiles: 1 },
  });
  uppy.use(AwsS3<ZipMeta, AwsBody>, {
    limit: 1,
    shouldUseMultipart: (file) => usesMultipart(file.size ?? 0),
    getChunkSize: () => partSizeBytes,
    allowedMetaFields: false,
    generateObjectKey: (file) => `${pendingPrefix}${file.id}`,
    signRequest: (request) => signZipRequest(uppy, request),
  });
  return uppy;
}

/** Where a ZIP goes: its batch's key, by the PUT signed with the batch or by a (resumed) multipart upload. */
export interface UploadTo {
  batchId: string;
  /** The single PUT the batch was created with; a resumed upload asks for fresh signatures instead. */
  put?: { url: string; key: string; headers: Record<string, string> };
  /** An interrupted multipart upload to continue from the parts the store already has (ListParts). */
  multipart?: { key: string; uploadId: string };
}

/** One run of the uploader: resolves once the archive is stored, rejects with the upload's own error. */
export async function sendZip(
  uppy: ZipUppy,
  zip: File,
  to: UploadTo,
  hooks: {
    progress(loaded: number, total: number): void;
    multipartStarted(multipart: { key: string; uploadId: string }): void;
  },
): Promise<void> {
  let failure: unknown;
  uppy.on("upload-progress", (_file, progress) =>
    hooks.progress(progress.bytesUploaded, progress.bytesTotal || zip.size),
  );
  uppy.on("upload-error", (_file, error) => {
    failure = error;
  });
  const fileId = uppy.addFile({
    name: zip.name,
    type: zip.type || "application/zip",
    data: zip,
    source: "local",
    meta: {
      batchId: to.batchId,
      ...(to.put ? { putUrl: to.put.url, putKey: to.put.key, putHeaders: to.put.headers } : {}),
    },
  });
  // How Uppy resumes: a file carrying its multipart upload's key and id lists the stored parts first.
  if (to.multipart) uppy.setFileState(fileId, { s3Multipart: to.multipart });
  const reportNewMultipart = () => {
    const multipart = uppy.getFile(fileId)?.s3Multipart;
    if (multipart && multipart.uploadId !== to.multipart?.uploadId) {
      hooks.multipartStarted({ key: multipart.key, uploadId: multipart.uploadId });
    }
  };
  uppy.on("state-update", reportNewMultipart);
  try {
    const result = await uppy.upload();
    if (failure !== undefined || !result || (result.failed?.length ?? 0) > 0 || !result.successful?.length) {
      throw failure ?? new Error(uploadUnknownErrorMessage);
    }
  } finally {
    // Whatever the uploader's state does afterwards (cancel, destroy) says nothing new about this run.
    uppy.off("state-update", reportNewMultipart);
  }
}

/**
 * Gives up a multipart upload that will not be resumed, so the store drops the parts it kept
 * (on AWS a lifecycle rule would, days later). Best effort: the batch stays unfinished either way.
 */
export async function abortZipMultipart(multipart: { key: string; uploadId: string }): Promise<void> {
  const { url } = await signUploadStep({ step: "abort", key: multipart.key, uploadId: multipart.uploadId });
  await fetch(url, { method: "DELETE" });
}
