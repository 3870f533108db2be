import { z } from "zod";
import { photoIdParam, type SearchResponse, searchQuery } from "../api";
import { endpoint } from "./endpoint";

/**
 * The `photos` group's routes an athlete's /search calls: the bib search and an athlete's
 * download. Apart from the staff's uploads and bib review (photos.ts, which holds these too) so
 * /search's first load builds neither those routes nor their schemas (issue 20).
 */
export const photosPublicApi = {
  search: endpoint<SearchResponse>()({
    method: "GET",
    path: "/api/photos/search",
    access: "public",
    query: searchQuery,
  }),
  // JSON rather than a 302: a fetch carrying the Authorization header would carry it on to the
  // signed storage URL too, and storage refuses a request signed twice.
  athleteDownload: endpoint<{ url: string }>()({
    method: "GET",
    path: "/api/athlete/photos/{photoId}/download",
    access: ["athlete"],
    params: z.object({ photoId: photoIdParam }),
  }),
};
