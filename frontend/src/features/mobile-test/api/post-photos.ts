import { pathFor, type UploadResponse } from "@dorsal/shared";
import { photosApi } from "@dorsal/shared/contract/photos";
import { errorMessageFor } from "../../../lib/api-fetch";
import { session } from "../../../lib/session";

export interface DiagnosticResult {
  endpoint: string;
  status: number | null;
  ms: number;
  response: UploadResponse | null;
  error: string | null;
}

/**
 * The spec's multipart upload exactly as a phone sends it (photos + eventId in one form), timed,
 * so an organizer can tell a network problem from a server one. When the upload call fails the
 * spec's fallback endpoint is tried with the same form.
 */
export async function postDiagnosticPhotos(eventId: number, files: File[]): Promise<DiagnosticResult[]> {
  const results: DiagnosticResult[] = [];
  // Plain fetch, not apiCall: the diagnostic reports every answer's status and time as it came.
  for (const route of [photosApi.upload, photosApi.emergencyUpload]) {
    const endpoint = pathFor(route);
    const form = new FormData();
    form.append("eventId", String(eventId));
    for (const file of files) form.append("photos", file, file.name);
    const token = session.get()?.token;
    const started = performance.now();
    try {
      const response = await fetch(endpoint, {
        method: route.method,
        body: form,
        headers: token ? { Authorization: `Bearer ${token}` } : {},
        credentials: "same-origin",
      });
      const text = await response.text();
      const ms = Math.round(performance.now() - started);
      if (response.ok) {
        results.push({
          endpoint,
          status: response.status,
          ms,
          response: JSON.parse(text) as UploadResponse,
          error: null,
        });
        return results;
      }
      results.push({
        endpoint,
        status: response.status,
        ms,
        response: null,
        error: errorMessageFor(response.status, response.statusText, text),
      });
    } catch {
      results.push({
        endpoint,
        status: null,
        ms: Math.round(performance.now() - started),
        response: null,
        error: "Error de conexión",
      });
    }
  }
  return results;
}
