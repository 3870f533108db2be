import { api } from "@dorsal/shared/contract";
import {
  downloadWithCode,
  downloadZipWithCode,
  generateDownloadCode,
  listDownloadCodes,
  validateDownloadCode,
} from "../../app/download-codes";
import { getContainer } from "../../compose";
import { createHttpHandler, reply } from "../../http/handler";

export const handler = createHttpHandler(
  api.codes,
  {
    generate: async ({ deps, body, session }) => reply(201, await generateDownloadCode(deps, body, session.userId)),
    list: ({ deps, query }) => listDownloadCodes(deps, query.eventId),
    validate: ({ deps, body, client }) => validateDownloadCode(deps, body, client),
    downloadPhoto: async ({ deps, params, client }) =>
      reply(302, undefined, { location: await downloadWithCode(deps, params.code, params.photoId, client) }),
    downloadZip: ({ deps, params, client }) => downloadZipWithCode(deps, params.code, client),
  },
  getContainer,
);
