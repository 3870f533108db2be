import { z } from "zod";
import { idParam, type PhotoDto, searchModes } from "../api";
import { limits } from "../constants";
import {
  type BibPhotoPage,
  type DorsalPage,
  dorsalNumber,
  downloadPhotoId,
  type PublicEventDto,
  photosByIdsRequest,
} from "../sales";
import { endpoint } from "./endpoint";

const pageQuery = z.object({ page: z.coerce.number().int().min(1).max(10_000).default(1) });
const photoPageQuery = z.object({
  cursor: z.coerce.number().int().min(0).max(100_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(limits.photosPreviewCount),
});
const paidPhotoPageQuery = photoPageQuery.extend({ mode: z.enum(searchModes).default("participant") });
const eventParams = z.object({ id: idParam });
const bibParams = z.object({ id: idParam, dorsal: dorsalNumber });
const freeEventParams = z.object({ eventId: idParam });
const freeBibParams = z.object({ eventId: idParam, dorsal: dorsalNumber });

/** Public browsing by event and bib, and the free photos (spec §2.6, §7; the `browse` function). */
export const browseApi = {
  events: endpoint<PublicEventDto[]>()({ method: "GET", path: "/api/events/all-with-photos", access: "public" }),
  dorsals: endpoint<DorsalPage>()({
    method: "GET",
    path: "/api/events/{id}/dorsals/all",
    access: "public",
    params: eventParams,
    query: pageQuery,
  }),
  photos: endpoint<BibPhotoPage>()({
    method: "GET",
    path: "/api/events/{id}/photos/{dorsal}/all",
    access: "public",
    params: bibParams,
    query: paidPhotoPageQuery,
  }),
  photosByIds: endpoint<PhotoDto[]>()({
    method: "POST",
    path: "/api/photos/by-ids",
    access: "public",
    body: photosByIdsRequest,
  }),
  freeEvents: endpoint<PublicEventDto[]>()({ method: "GET", path: "/api/free-events", access: "public" }),
  freeDorsals: endpoint<DorsalPage>()({
    method: "GET",
    path: "/api/free-events/{eventId}/dorsals",
    access: "public",
    params: freeEventParams,
    query: pageQuery,
  }),
  freePhotos: endpoint<BibPhotoPage>()({
    method: "GET",
    path: "/api/free-events/{eventId}/photos/{dorsal}",
    access: "public",
    params: freeBibParams,
    query: photoPageQuery,
  }),
  /** Answers 302 to a short-lived signed URL of the GRATIS/DEMO copy. */
  freeDownload: endpoint<undefined>()({
    method: "GET",
    path: "/api/free-photos/download/{photoId}",
    access: "public",
    params: z.object({ photoId: downloadPhotoId }),
  }),
};
