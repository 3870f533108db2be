import { generateDownloadCodeRequest, idParam, validateDownloadCodeRequest } from "@dorsal/shared";
import { z } from "zod";
import {
  downloadWithCode,
  downloadZipWithCode,
  generateDownloadCode,
  listDownloadCodes,
  validateDownloadCode,
} from "../../app/download-codes";
import { getContainer } from "../../compose";
import { createHttpHandler, reply, route } from "../../http/handler";

const codeParams = z.object({ code: z.string().min(1).max(32) });
const downloadParams = codeParams.extend({ photoId: z.string().min(1).max(64) });

export const handler = createHttpHandler(
  {
    "POST /api/admin/generate-download-code": route({
      access: ["admin"],
      body: generateDownloadCodeRequest,
      run: async ({ deps, body, session }) => reply(201, await generateDownloadCode(deps, body, session?.userId ?? "")),
    }),
    "GET /api/admin/download-codes": route({
      access: ["admin"],
      query: z.object({ eventId: idParam }),
      run: ({ deps, query }) => listDownloadCodes(deps, query.eventId),
    }),
    "POST /api/download-codes/validate": route({
      access: "public",
      body: validateDownloadCodeRequest,
      run: ({ deps, body, client }) => validateDownloadCode(deps, body, client),
    }),
    "GET /api/download-codes/download/{code}/{photoId}": route({
      access: "public",
      params: downloadParams,
      run: async ({ deps, params, client }) =>
        reply(302, undefined, { location: await downloadWithCode(deps, params.code, params.photoId, client) }),
    }),
    "POST /api/download-codes/download/{code}/zip": route({
      access: "public",
      params: codeParams,
      run: ({ deps, params, client }) => downloadZipWithCode(deps, params.code, client),
    }),
  },
  getContainer,
);
