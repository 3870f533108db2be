import { z } from "zod";
import { type AnalyticsDto, analyticsQuery } from "../analytics";
import { type EventProcessingDto, type FailedPhotoPage, idParam, type RerunFailedResponse } from "../api";
import { type OutboxMessage, type OutboxPage, outboxId, outboxQuery } from "../mail";
import type {
  CacheStatsDto,
  CleanupTempDto,
  PerformanceStatsDto,
  QueueStatsDto,
  UploadMetricsDto,
} from "../performance";
import { type PreflightRunDto, type PreflightRunList, preflightRunIdParam, startPreflightRequest } from "../preflight";
import { rerunFailedRequest } from "../staff-requests";
import { endpoint, type FileAnswer } from "./endpoint";

const failedPhotosQuery = z.object({
  eventId: idParam.optional(),
  cursor: z.string().max(2000).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

/** Processing follow-up, the dead-letter list and analytics (the `admin` function). */
export const adminApi = {
  failedPhotos: endpoint<FailedPhotoPage>()({
    method: "GET",
    path: "/api/admin/failed-photos",
    access: ["admin"],
    query: failedPhotosQuery,
  }),
  rerunFailed: endpoint<RerunFailedResponse>()({
    method: "POST",
    path: "/api/admin/failed-photos/rerun",
    access: ["admin"],
    body: rerunFailedRequest,
  }),
  analytics: endpoint<AnalyticsDto>()({
    method: "GET",
    path: "/api/analytics",
    access: ["admin"],
    query: analyticsQuery,
  }),
  /** The same figures as `analytics`, for the same query, as a PDF to download (issue 22). */
  analyticsReport: endpoint<FileAnswer>()({
    method: "GET",
    path: "/api/analytics/report",
    access: ["admin"],
    query: analyticsQuery,
  }),
  processing: endpoint<EventProcessingDto>()({
    method: "GET",
    path: "/api/events/{id}/processing",
    access: ["admin", "photographer"],
    params: z.object({ id: idParam }),
  }),
  /** Starts a preflight run in the background; the screen polls `preflightRun` until it ends. */
  startPreflight: endpoint<PreflightRunDto>()({
    method: "POST",
    path: "/api/admin/preflight",
    access: ["admin"],
    body: startPreflightRequest,
  }),
  /** The latest runs, newest first, whoever started them (admins, the schedule, a deploy). */
  preflightRuns: endpoint<PreflightRunList>()({
    method: "GET",
    path: "/api/admin/preflight",
    access: ["admin"],
  }),
  preflightRun: endpoint<PreflightRunDto>()({
    method: "GET",
    path: "/api/admin/preflight/{runId}",
    access: ["admin"],
    params: z.object({ runId: preflightRunIdParam }),
  }),
  /** The performance dashboard (spec §2.7): measured stage times, memory, failures, SLA alerts. */
  performanceStats: endpoint<PerformanceStatsDto>()({
    method: "GET",
    path: "/api/admin/performance-stats",
    access: ["admin"],
  }),
  cacheStats: endpoint<CacheStatsDto>()({
    method: "GET",
    path: "/api/admin/cache-stats",
    access: ["admin"],
  }),
  asyncProcessingStats: endpoint<QueueStatsDto>()({
    method: "GET",
    path: "/api/admin/async-processing-stats",
    access: ["admin"],
  }),
  uploadMetrics: endpoint<UploadMetricsDto>()({
    method: "GET",
    path: "/api/admin/upload-metrics",
    access: ["admin"],
  }),
  cleanupTemp: endpoint<CleanupTempDto>()({
    method: "POST",
    path: "/api/admin/cleanup-temp",
    access: ["admin"],
  }),
  /** 'Correos enviados': the local outbox, newest first; on AWS it says mail goes through SES. */
  outbox: endpoint<OutboxPage>()({
    method: "GET",
    path: "/api/admin/outbox",
    access: ["admin"],
    query: outboxQuery,
  }),
  outboxMessage: endpoint<OutboxMessage>()({
    method: "GET",
    path: "/api/admin/outbox/{id}",
    access: ["admin"],
    params: z.object({ id: outboxId }),
  }),
};
