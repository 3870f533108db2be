import type { EndpointSpec, FileAnswer } from "@dorsal/shared";
import { ApiError, type CallArguments, invalidResponseMessage, requestFor, send } from "./api-fetch";

/** A file the API answered: its bytes and the name the server gave it. */
export interface DownloadedFile {
  blob: Blob;
  filename: string;
}

/** The name in `attachment; filename="…"` (the server writes only ASCII names, quoted). */
const attachmentName = /filename="([^"]+)"/;

/**
 * `apiCall` (api-fetch.ts) for an endpoint that answers a file (`FileAnswer`), with the same session and the
 * same errors: the bytes as a Blob, to save with `saveBlob`, under the server's name.
 */
export async function apiDownload<E extends EndpointSpec & { readonly "~response"?: FileAnswer }>(
  endpoint: E,
  ...[request]: CallArguments<E>
): Promise<DownloadedFile> {
  const { path, options } = requestFor(endpoint, request);
  const response = await send(path, { ...options, accept: "*/*" });
  const filename = attachmentName.exec(response.headers.get("content-disposition") ?? "")?.[1];
  if (!filename) throw new ApiError(invalidResponseMessage, response.status);
  return { blob: await response.blob(), filename };
}
