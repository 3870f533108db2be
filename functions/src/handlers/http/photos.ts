import { bibNumber, idParam, messages, presignRequest, searchQuery } from "@dorsal/shared";
import { z } from "zod";
import { addManualBib, listEventPhotos, reindexEvent, removeBib } from "../../app/bib-index";
import { invalid } from "../../app/errors";
import { getPhoto, searchByBib } from "../../app/search";
import { presignUploads, uploadFiles } from "../../app/uploads";
import { getContainer } from "../../compose";
import { createHttpHandler, route } from "../../http/handler";

const uploaders = ["admin", "photographer"] as const;
const photoId = z.string().regex(/^[a-z0-9]{10,40}$/);
const pageQuery = z.object({
  filter: z.enum(["todas", "sin-dorsal"]).default("todas"),
  cursor: z.string().max(2000).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(48),
});

export const handler = createHttpHandler(
  {
    "POST /api/photos/presign": route({
      access: uploaders,
      body: presignRequest,
      run: ({ deps, session, body }) => presignUploads(deps, session as NonNullable<typeof session>, body),
    }),
    "POST /api/photos/upload": route({
      access: uploaders,
      multipart: true,
      run: async ({ deps, session, form }) => {
        const eventId = idParam.safeParse(form?.fields.eventId);
        if (!eventId.success) throw invalid(messages.selectEvent);
        const files = (form?.files ?? []).filter((file) => file.field === "photos" && file.data.length > 0);
        // Duplicates are found by the pipeline (it hashes each original), so they show in each photo's status later.
        const forceDuplicates = form?.fields.forceDuplicates === "true";
        return uploadFiles(deps, session as NonNullable<typeof session>, eventId.data, files, { forceDuplicates });
      },
    }),
    "GET /api/photos/search": route({
      access: "public",
      query: searchQuery,
      run: ({ deps, query }) => searchByBib(deps, query.eventId, query.dorsalNumber),
    }),
    "GET /api/photos/{id}": route({
      access: uploaders,
      params: z.object({ id: photoId }),
      run: ({ deps, params }) => getPhoto(deps, params.id),
    }),
    "GET /api/events/{id}/photos": route({
      access: ["admin"],
      params: z.object({ id: idParam }),
      query: pageQuery,
      run: ({ deps, params, query }) =>
        listEventPhotos(deps, params.id, { unbibbed: query.filter === "sin-dorsal", ...query }),
    }),
    "POST /api/events/{id}/reindex": route({
      access: ["admin"],
      params: z.object({ id: idParam }),
      body: z.object({ cursor: z.string().max(2000).nullish() }),
      // A page per call keeps every request well inside API Gateway's 29 s; the browser follows the cursor.
      run: ({ deps, params, body }) => reindexEvent(deps, params.id, { cursor: body.cursor ?? undefined, limit: 100 }),
    }),
    "POST /api/events/{id}/photos/{photoId}/bibs": route({
      access: ["admin"],
      params: z.object({ id: idParam, photoId }),
      body: z.object({ dorsalNumber: bibNumber }),
      run: ({ deps, params, body }) => addManualBib(deps, params.id, params.photoId, body.dorsalNumber),
    }),
    "DELETE /api/events/{id}/photos/{photoId}/bibs/{dorsal}": route({
      access: ["admin"],
      params: z.object({ id: idParam, photoId, dorsal: bibNumber }),
      run: ({ deps, params }) => removeBib(deps, params.id, params.photoId, params.dorsal),
    }),
  },
  getContainer,
);
