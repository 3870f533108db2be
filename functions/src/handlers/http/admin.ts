import { api } from "@dorsal/shared";
import { analytics } from "../../app/analytics";
import { getPreflightRun, listPreflightRuns, startPreflight } from "../../app/preflight";
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
    startPreflight: ({ deps, session, body }) => startPreflight(deps, session, body),
    preflightRuns: ({ deps }) => listPreflightRuns(deps),
    preflightRun: ({ deps, params }) => getPreflightRun(deps, params.runId),
  },
  getContainer,
);
