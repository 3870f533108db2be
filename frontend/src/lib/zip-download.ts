import type { DownloadZip } from "@dorsal/shared";
import { useMutation } from "@tanstack/react-query";

/**
 * Hands the ZIP to the browser's own download manager: the signed URL answers as an attachment,
 * so the file is saved without a copy in the page's memory (a phone could not hold hundreds of MB).
 */
export function saveZip(zip: DownloadZip): void {
  const link = document.createElement("a");
  link.href = zip.url;
  link.download = zip.filename;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * 'Descargar todas (ZIP)': the server builds one ZIP of the originals that still have downloads
 * left (each counted once) and answers its short-lived link; `request` asks the link's route or the code's.
 */
export function useZipDownload(request: () => Promise<DownloadZip>, onCounted: () => unknown) {
  return useMutation({
    mutationFn: request,
    onSuccess: (zip) => saveZip(zip),
    // The screen says why next to the ZIP button.
    meta: { errorToast: false },
    // The server counted the downloads before answering, whether or not the ZIP was made.
    onSettled: () => onCounted(),
  });
}
