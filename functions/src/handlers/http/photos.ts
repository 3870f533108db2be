import { idParam, messages, presignRequest, searchQuery } from "@dorsal/shared";
import { z } from "zod";
import { invalid } from "../../app/errors";
import { getPhoto, searchByBib } from "../../app/search";
import { presignUploads, uploadFiles } from "../../app/uploads";
import { getContainer } from "../../compose";
import { createHttpHandler, route } from "../../http/handler";

const uploaders = ["admin", "photographer"] as const;

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
        return uploadFiles(deps, session as NonNullable<typeof session>, eventId.data, files);
      },
    }),
    "GET /api/photos/search": route({
      access: "public",
      query: searchQuery,
      run: ({ deps, query }) => searchByBib(deps, query.eventId, query.dorsalNumber),
    }),
    "GET /api/photos/{id}": route({
      access: uploaders,
      params: z.object({ id: z.string().regex(/^[a-z0-9]{10,40}$/) }),
      run: ({ deps, params }) => getPhoto(deps, params.id),
    }),
  },
  getContainer,
);
