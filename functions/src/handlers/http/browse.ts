import { api } from "@dorsal/shared/contract";
import { bibPhotoPage, dorsalPage, eventsWithPhotos, freePhotoUrl, photosByIds } from "../../app/browse";
import { getContainer } from "../../compose";
import { createHttpHandler, reply } from "../../http/handler";

/** Public browsing by event and bib, and the free photos (spec §2.6, §7). */
export const handler = createHttpHandler(
  api.browse,
  {
    events: ({ deps }) => eventsWithPhotos(deps, { free: false }),
    dorsals: ({ deps, params, query }) => dorsalPage(deps, params.id, query.page, { free: false }),
    photos: ({ deps, params, query, session }) =>
      bibPhotoPage(deps, params.id, params.dorsal, query, { free: false, session, mode: query.mode }),
    photosByIds: ({ deps, body }) => photosByIds(deps, body.photoIds),
    freeEvents: ({ deps }) => eventsWithPhotos(deps, { free: true }),
    freeDorsals: ({ deps, params, query }) => dorsalPage(deps, params.eventId, query.page, { free: true }),
    freePhotos: ({ deps, params, query }) =>
      bibPhotoPage(deps, params.eventId, params.dorsal, query, { free: true, session: undefined, mode: "participant" }),
    freeDownload: async ({ deps, params }) =>
      reply(302, undefined, { location: await freePhotoUrl(deps, params.photoId) }),
  },
  getContainer,
);
