import { type DownloadPhoto, salesMessages } from "@dorsal/shared";
import { ApiError } from "../../../lib/api-fetch";
import { saveBlob } from "../../../lib/download-file";

/** `apiCall`'s generic form ('404: Not Found') means the server gave no reason of its own. */
const genericFailure = /^\d{3}: /;

/**
 * Spec §8: a refusal shows the server's reason (expired, limit reached…) or 'Código de descarga
 * inválido'; anything that kept the code from being checked at all asks to try again.
 */
export function validationFailureMessage(failure: unknown): string {
  if (!(failure instanceof ApiError) || failure.status >= 500) return salesMessages.codeValidateFailed;
  return genericFailure.test(failure.message) ? salesMessages.codeInvalid : failure.message;
}

/**
 * Fetches the original and hands it to the browser as a file. Fetched rather than linked: each
 * failure can be reported per photo (spec §8), and a browser ignores `download` on a link that
 * redirects to a signed URL of another origin, opening the photo instead of saving it.
 */
export async function savePhoto(photo: DownloadPhoto): Promise<void> {
  const response = await fetch(photo.downloadUrl, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`${response.status}`);
  saveBlob(await response.blob(), photo.originalFilename || photo.filename);
}
