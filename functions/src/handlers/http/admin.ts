import { analyticsQuery, idParam, rerunFailedRequest } from "@dorsal/shared";
import { z } from "zod";
import { analytics } from "../../app/analytics";
import { eventProcessing, listFailedPhotos, rerunFailedPhotos } from "../../app/processing";
import { getContainer } from "../../compose";
import { createHttpHandler, route } from "../../http/handler";

const failedQuery = z.object({
  eventId: idParam.optional(),
  cursor: z.string().max(2000).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

export const handler = createHttpHandler(
  {
    "GET /api/admin/failed-photos": route({
      access: ["admin"],
      query: failedQuery,
      run: ({ deps, query }) => listFailedPhotos(deps, query),
    }),
    "POST /api/admin/failed-photos/rerun": route({
      access: ["admin"],
      body: rerunFailedRequest,
      run: ({ deps, body }) => rerunFailedPhotos(deps, body),
    }),
    "GET /api/analytics": route({
      access: ["admin"],
      query: analyticsQuery,
      run: ({ deps, query }) => analytics(deps, query),
    }),
    "GET /api/events/{id}/processing": route({
      access: ["admin", "photographer"],
      params: z.object({ id: idParam }),
      run: ({ deps, session, params }) => eventProcessing(deps, session as NonNullable<typeof session>, params.id),
    }),
  },
  getContainer,
);
