/**
 * The performance dashboard's figures (spec §2.7, §4 and issue 21 item 2), all measured: nothing
 * here is a demo value. Times in ms, memory in bytes, rates 0..1; null where the platform cannot
 * tell (said on the screen, not guessed).
 */

/** The pipeline's measured stages; `searchable` is a photo's whole path, from arriving in storage to searchable. */
export const measuredStages = ["variants", "detect", "record", "searchable"] as const;
export type MeasuredStage = (typeof measuredStages)[number];

export interface StageFigures {
  stage: MeasuredStage;
  /** Photos measured in the window. */
  count: number;
  p50Ms: number | null;
  p95Ms: number | null;
}

export interface MemoryReading {
  at: string;
  /** Resident memory of the measured process (the runtime locally, the variants function on AWS). */
  rss: number;
  heapUsed: number | null;
}

/**
 * Spec's SLA (a photo searchable within a minute of its upload), as a rule: the p95 of arrival →
 * searchable over the last 5 minutes, once enough photos were measured to mean something. The
 * dashboard raises its alert from it, and on AWS a CloudWatch alarm watches the same figure.
 */
export const slaRule = { windowMinutes: 5, minimumPhotos: 5, warningMs: 60_000, criticalMs: 120_000 } as const;

/** Spec §3 sla_alerts, raised by a rule over the measurements rather than stored by hand. */
export interface SlaAlertDto {
  alertType: "searchable_p95";
  severity: "warning" | "critical";
  message: string;
  metadata: { p95Ms: number; thresholdMs: number; windowMinutes: number; photos: number };
  timestamp: string;
}

/** GET /api/admin/performance-stats */
export interface PerformanceStatsDto {
  /** The window the stage figures cover: the last hour. */
  from: string;
  to: string;
  stages: StageFigures[];
  /** Spec: mean upload (arrival → searchable) and OCR (detect) times over the window. */
  averageUploadTime: number | null;
  averageOcrTime: number | null;
  /** Processed ÷ (processed + failed), all events, all time. */
  successRate: number | null;
  totalPhotosProcessed: number;
  /** Photos that became searchable per minute, over the last 5 minutes and the last hour. */
  photosPerMinute: { last5Minutes: number; lastHour: number };
  peakMemoryUsage: number | null;
  /** The last 20 readings, oldest first. */
  memoryTrend: MemoryReading[];
  /** Why photos failed: every event's failed photos, by reason. */
  failuresByReason: { reason: string; count: number }[];
  alerts: SlaAlertDto[];
  lastUpdated: string;
}

/** GET /api/admin/cache-stats: the signed image URL cache of the process that answers. */
export interface CacheStatsDto {
  totalEntries: number;
  /** Approximate bytes held. */
  totalSize: number;
  hitRate: number | null;
  hits: number;
  misses: number;
  evictions: number;
}

/** GET /api/admin/async-processing-stats: the pipeline's queue. */
export interface QueueStatsDto {
  /** Uploaded and not yet processed, failed or found duplicate (all events). */
  pending: number;
  /** Of those, executions running now; null where the platform does not say (AWS). */
  processing: number | null;
  /** Waiting for a slot, when the platform says (the local queue; AWS's start queue). */
  waiting: number | null;
  /**
   * When the oldest waiting photo arrived (locally the queue's first; on AWS the start queue's oldest
   * notification, from its CloudWatch age metric); null when none waits or nothing says.
   */
  oldestWaitingSince: string | null;
  completed: number;
  failed: number;
  /** Mean of variants + detect per processed photo, all time. */
  averageProcessingTime: number | null;
}

/** GET /api/admin/upload-metrics: the asking admin's latest upload. */
export interface UploadMetricsDto {
  isActive: boolean;
  uploadId: string | null;
  eventId: number | null;
  totalPhotos: number;
  processedPhotos: number;
  successfulPhotos: number;
  failedPhotos: number;
  averageOcrTime: number | null;
  /** From the upload's start to its last photo settled (or now, while active). */
  totalUploadTime: number | null;
  lastProcessedPhoto: string | null;
}

/** POST /api/admin/cleanup-temp */
export interface CleanupTempDto {
  cleanedFiles: number;
  cleanedBytes: number;
}
