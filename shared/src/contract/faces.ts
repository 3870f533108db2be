import type { FaceForgetResponse, FaceSearchResponse } from "../face-search";
import { endpoint } from "./endpoint";

/**
 * Selfie search (issue 23), a function of its own: only it (and the pipeline) may search
 * Rekognition's face collections. Public, like the bib search; the form carries `eventId`,
 * `consent=true` and the `selfie`, and the server throttles it per address as it does sign-in.
 */
export const facesApi = {
  search: endpoint<FaceSearchResponse>()({
    method: "POST",
    path: "/api/photos/search-by-face",
    access: "public",
    multipart: true,
  }),
  // The athlete's deletion: the photos this selfie finds for certain stop answering it.
  forget: endpoint<FaceForgetResponse>()({
    method: "POST",
    path: "/api/photos/search-by-face/forget",
    access: "public",
    multipart: true,
  }),
};
