import { api } from "@dorsal/shared";
import { analytics } from "../../app/analytics";
import { eventProcessing, listFailedPhotos, rerunFailedPhotos } from "../../app/processing";
import { getContainer } from "../../compose";
import { createHttpHandler } from "../../http/handler";

export const handler = createHttpHandler(
  api.admin,
  {
    failedPhotos: ({ deps, query }) => listFailedPhotos(deps, query),
    rerunFailed: ({ deps, body }) => rerunFailedPhotos(deps, body),
    analytics: ({ deps, query }) => analytics(deps, query),
    processing: ({ deps, session, params }) => eventProcessing(deps, session, params.id),
  },
  getContainer,
);
