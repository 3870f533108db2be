import type { AnalyticsRange } from "@dorsal/shared";
import { adminApi } from "@dorsal/shared/contract/admin";
import { useMutation } from "@tanstack/react-query";
import { apiDownload } from "../../../lib/api-download";
import { saveBlob } from "../../../lib/download-file";

/**
 * The analytics PDF for the range and event on screen, fetched with the session (a link could not
 * carry its token) and saved under the server's name. A failure is the toast's, in the app's words.
 */
export function useDownloadReport() {
  return useMutation({
    mutationFn: async ({ range, eventId }: { range: AnalyticsRange; eventId: number | null }) => {
      const file = await apiDownload(adminApi.analyticsReport, { query: { range, eventId: eventId ?? undefined } });
      saveBlob(file.blob, file.filename);
    },
    meta: { errorTitle: "No se pudo descargar el informe" },
  });
}
