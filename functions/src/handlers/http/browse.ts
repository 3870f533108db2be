import { dorsalNumber, idParam, limits, photosByIdsRequest } from "@dorsal/shared";
import { z } from "zod";
import { bibPhotoPage, dorsalPage, eventsWithPhotos, freePhotoUrl, photosByIds } from "../../app/browse";
import { getContainer } from "../../compose";
import { createHttpHandler, reply, route } from "../../http/handler";

const pageQuery = z.object({ page: z.coerce.number().int().min(1).max(10_000).default(1) });
const photoPageQuery = z.object({
  cursor: z.coerce.number().int().min(0).max(100_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(limits.photosPreviewCount),
});
const eventParams = z.object({ id: idParam });
const bibParams = z.object({ id: idParam, dorsal: dorsalNumber });
const freeEventParams = z.object({ eventId: idParam });
const freeBibParams = z.object({ eventId: idParam, dorsal: dorsalNumber });

/** Public browsing by event and bib, and the free photos (spec §2.6, §7). */
export const handler = createHttpHandler(
  {
    "GET /api/events/all-with-photos": route({
      access: "public",
      run: ({ deps }) => eventsWithPhotos(deps, { free: false }),
    }),
    "GET /api/events/{id}/dorsals/all": route({
      access: "public",
      params: eventParams,
      query: pageQuery,
      run: ({ deps, params, query }) => dorsalPage(deps, params.id, query.page, { free: false }),
    }),
    "GET /api/events/{id}/photos/{dorsal}/all": route({
      access: "public",
      params: bibParams,
      query: photoPageQuery,
      run: ({ deps, params, query, session }) =>
        bibPhotoPage(deps, params.id, params.dorsal, query, { free: false, session }),
    }),
    "POST /api/photos/by-ids": route({
      access: "public",
      body: photosByIdsRequest,
      run: ({ deps, body }) => photosByIds(deps, body.photoIds),
    }),
    "GET /api/free-events": route({
      access: "public",
      run: ({ deps }) => eventsWithPhotos(deps, { free: true }),
    }),
    "GET /api/free-events/{eventId}/dorsals": route({
      access: "public",
      params: freeEventParams,
      query: pageQuery,
      run: ({ deps, params, query }) => dorsalPage(deps, params.eventId, query.page, { free: true }),
    }),
    "GET /api/free-events/{eventId}/photos/{dorsal}": route({
      access: "public",
      params: freeBibParams,
      query: photoPageQuery,
      run: ({ deps, params, query }) =>
        bibPhotoPage(deps, params.eventId, params.dorsal, query, { free: true, session: undefined }),
    }),
    "GET /api/free-photos/download/{photoId}": route({
      access: "public",
      params: z.object({ photoId: z.string().min(1).max(64) }),
      run: async ({ deps, params }) => reply(302, undefined, { location: await freePhotoUrl(deps, params.photoId) }),
    }),
  },
  getContainer,
);
