import { api } from "@dorsal/shared/contract";
import { analytics } from "../../app/analytics";
import { analyticsReport } from "../../app/analytics-report";
import { listOutbox, readOutboxMessage } from "../../app/outbox";
import { cacheStats, cleanupTemp, performanceStats, queueStats, uploadMetrics } from "../../app/performance";
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
    analyticsReport: ({ deps, query }) => analyticsReport(deps, query),
    processing: ({ deps, session, params }) => eventProcessing(deps, session, params.id),
    startPreflight: ({ deps, session, body }) => startPreflight(deps, session, body),
    preflightRuns: ({ deps }) => listPreflightRuns(deps),
    preflightRun: ({ deps, params }) => getPreflightRun(deps, params.runId),
    performanceStats: ({ deps }) => performanceStats(deps),
    cacheStats: ({ deps }) => cacheStats(deps),
    asyncProcessingStats: ({ deps }) => queueStats(deps),
    uploadMetrics: ({ deps, session }) => uploadMetrics(deps, session),
    cleanupTemp: ({ deps }) => cleanupTemp(deps),
    outbox: ({ deps, query }) => listOutbox(deps, query),
    outboxMessage: ({ deps, params }) => readOutboxMessage(deps, params.id),
  },
  getContainer,
);
