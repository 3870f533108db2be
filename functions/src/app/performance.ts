import {
  type CacheStatsDto,
  type CleanupTempDto,
  type MeasuredStage,
  type MemoryReading,
  measuredStages,
  type PerformanceStatsDto,
  type QueueStatsDto,
  type SlaAlertDto,
  slaRule,
  type UploadMetricsDto,
} from "@dorsal/shared";
import type { Deps } from "./deps";
import { downloadZipTtlSeconds, sweepDownloadZips } from "./original-zip";
import { detectionMs } from "./pipeline";
import type { SessionClaims } from "./tokens";

/**
 * The performance dashboard (spec §2.7, issue 21 item 2): every figure read back from what the
 * pipeline, the URL signer and the stores measured — nothing assumed.
 */

const hourMs = 3600_000;
const memoryReadings = 20;
/** 20 readings of 3 minutes cover the dashboard's hour. */
const memoryPeriodSeconds = 180;
/** How many failed photos are grouped by reason at most (a page of the failed index each 100). */
const failuresScanned = 1000;

const mean = (sum: number, count: number) => (count > 0 ? Math.round(sum / count) : null);

async function allEventStats(deps: Deps) {
  const events = await deps.events.list();
  const stats = await deps.events.stats(events.map((event) => event.id));
  return [...stats.values()];
}

export async function performanceStats(deps: Deps): Promise<PerformanceStatsDto> {
  const now = deps.clock.now();
  const hourAgo = new Date(now.getTime() - hourMs);
  const fiveMinutesAgo = new Date(now.getTime() - slaRule.windowMinutes * 60_000);
  const stage = (name: MeasuredStage, since = hourAgo) =>
    deps.metrics.summary({ name: "StageMs", stage: name, since, until: now });
  const [summaries, recent, events, rss, heap, failures] = await Promise.all([
    Promise.all(measuredStages.map((name) => stage(name))),
    stage("searchable", fiveMinutesAgo),
    allEventStats(deps),
    deps.metrics.maxima({ name: "RssBytes", since: hourAgo, until: now, periodSeconds: memoryPeriodSeconds }),
    deps.metrics.maxima({ name: "HeapUsedBytes", since: hourAgo, until: now, periodSeconds: memoryPeriodSeconds }),
    failuresByReason(deps),
  ]);
  const byStage = new Map(measuredStages.map((name, index) => [name, summaries[index]]));
  const searchable = byStage.get("searchable");
  const detect = byStage.get("detect");
  const processed = events.reduce((total, event) => total + event.processedPhotos, 0);
  const failed = events.reduce((total, event) => total + event.failedPhotos, 0);
  const heapAt = new Map(heap.map((reading) => [reading.at.getTime(), reading.value]));
  const memoryTrend: MemoryReading[] = rss.slice(-memoryReadings).map((reading) => ({
    at: reading.at.toISOString(),
    rss: reading.value,
    heapUsed: heapAt.get(reading.at.getTime()) ?? null,
  }));
  return {
    from: hourAgo.toISOString(),
    to: now.toISOString(),
    stages: measuredStages.map((name) => {
      const summary = byStage.get(name);
      return { stage: name, count: summary?.count ?? 0, p50Ms: summary?.p50 ?? null, p95Ms: summary?.p95 ?? null };
    }),
    averageUploadTime: mean(searchable?.sum ?? 0, searchable?.count ?? 0),
    averageOcrTime: mean(detect?.sum ?? 0, detect?.count ?? 0),
    successRate: processed + failed > 0 ? processed / (processed + failed) : null,
    totalPhotosProcessed: processed,
    photosPerMinute: {
      last5Minutes: Math.round((recent.count / slaRule.windowMinutes) * 10) / 10,
      lastHour: Math.round(((searchable?.count ?? 0) / 60) * 10) / 10,
    },
    peakMemoryUsage: rss.length > 0 ? Math.max(...rss.map((reading) => reading.value)) : null,
    memoryTrend,
    failuresByReason: failures,
    alerts: slaAlerts(recent, now),
    lastUpdated: now.toISOString(),
  };
}

function slaAlerts(recent: { count: number; p95: number | null }, now: Date): SlaAlertDto[] {
  if (recent.count < slaRule.minimumPhotos || recent.p95 === null || recent.p95 <= slaRule.warningMs) return [];
  const critical = recent.p95 > slaRule.criticalMs;
  return [
    {
      alertType: "searchable_p95",
      severity: critical ? "critical" : "warning",
      message:
        `El 95 % de las fotos de los últimos ${slaRule.windowMinutes} minutos tardó hasta ` +
        `${Math.round(recent.p95 / 1000)} s en poder buscarse (el objetivo es ${slaRule.warningMs / 1000} s)`,
      metadata: {
        p95Ms: recent.p95,
        thresholdMs: critical ? slaRule.criticalMs : slaRule.warningMs,
        windowMinutes: slaRule.windowMinutes,
        photos: recent.count,
      },
      timestamp: now.toISOString(),
    },
  ];
}

async function failuresByReason(deps: Deps): Promise<{ reason: string; count: number }[]> {
  const counts = new Map<string, number>();
  let cursor: Parameters<typeof deps.photos.listFailed>[0]["cursor"];
  let scanned = 0;
  do {
    const page = await deps.photos.listFailed({ limit: 100, ...(cursor ? { cursor } : {}) });
    for (const photo of page.photos) {
      const reason = photo.failureReason ?? "Sin motivo registrado";
      counts.set(reason, (counts.get(reason) ?? 0) + 1);
    }
    scanned += page.photos.length;
    cursor = page.cursor;
  } while (cursor && scanned < failuresScanned);
  return [...counts.entries()]
    .map(([reason, count]) => ({ reason, count }))
    .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
}

export async function cacheStats(deps: Deps): Promise<CacheStatsDto> {
  const until = deps.clock.now();
  const since = new Date(until.getTime() - hourMs);
  const sum = async (name: "UrlCacheHits" | "UrlCacheMisses" | "UrlCacheEvictions") =>
    (await deps.metrics.summary({ name, since, until })).sum;
  const latest = async (name: "UrlCacheEntries" | "UrlCacheBytes") =>
    (await deps.metrics.maxima({ name, since, until, periodSeconds: 60 })).at(-1)?.value ?? 0;
  const [hits, misses, evictions, totalEntries, totalSize] = await Promise.all([
    sum("UrlCacheHits"),
    sum("UrlCacheMisses"),
    sum("UrlCacheEvictions"),
    latest("UrlCacheEntries"),
    latest("UrlCacheBytes"),
  ]);
  return {
    totalEntries,
    totalSize,
    hits,
    misses,
    evictions,
    hitRate: hits + misses > 0 ? hits / (hits + misses) : null,
  };
}

export async function queueStats(deps: Deps): Promise<QueueStatsDto> {
  const [events, queue] = await Promise.all([allEventStats(deps), deps.pipelineQueue.state()]);
  const total = (pick: (event: (typeof events)[number]) => number) =>
    events.reduce((sum, event) => sum + pick(event), 0);
  const completed = total((event) => event.processedPhotos);
  return {
    pending: Math.max(
      0,
      total((event) => event.totalPhotos - event.processedPhotos - event.failedPhotos - event.duplicatePhotos),
    ),
    processing: queue.running,
    waiting: queue.waiting,
    oldestWaitingSince: queue.oldestWaitingSince?.toISOString() ?? null,
    completed,
    failed: total((event) => event.failedPhotos),
    averageProcessingTime: mean(
      total((event) => event.processingMsTotal),
      completed,
    ),
  };
}

/** The asking admin's latest upload (photos or a ZIP), as the upload screen counts it. */
export async function uploadMetrics(deps: Deps, session: SessionClaims): Promise<UploadMetricsDto> {
  const [upload] = await deps.uploads.listByUser(session.userId, 1);
  const none: UploadMetricsDto = {
    isActive: false,
    uploadId: null,
    eventId: null,
    totalPhotos: 0,
    processedPhotos: 0,
    successfulPhotos: 0,
    failedPhotos: 0,
    averageOcrTime: null,
    totalUploadTime: null,
    lastProcessedPhoto: null,
  };
  if (!upload) return none;
  const files = await deps.uploads.files(upload.uploadId);
  const settled = files.filter((file) => ["successful", "failed", "duplicate"].includes(file.status));
  const successful = files.filter((file) => file.status === "successful");
  const photos = await deps.photos.getMany(successful.map((file) => file.photoId));
  const ocr = photos.flatMap((photo) => {
    const ms = photo.recognition?.ms;
    return ms ? [detectionMs(ms)] : [];
  });
  const totalPhotos = Math.max(upload.fileCount, files.length);
  const isActive = settled.length < totalPhotos;
  const lastSettled = settled.reduce<(typeof settled)[number] | undefined>(
    (latest, file) => (!latest || file.updatedAt > latest.updatedAt ? file : latest),
    undefined,
  );
  const endedAt = isActive ? deps.clock.now().getTime() : Date.parse(lastSettled?.updatedAt ?? upload.createdAt);
  return {
    isActive,
    uploadId: upload.uploadId,
    eventId: upload.eventId,
    totalPhotos,
    processedPhotos: settled.length,
    successfulPhotos: successful.length,
    failedPhotos: files.filter((file) => file.status === "failed").length,
    averageOcrTime: mean(
      ocr.reduce((sum, ms) => sum + ms, 0),
      ocr.length,
    ),
    totalUploadTime: Math.max(0, endedAt - Date.parse(upload.createdAt)),
    lastProcessedPhoto: lastSettled?.originalFilename ?? null,
  };
}

/**
 * 'Limpiar archivos temporales': what storage keeps only for a while — download ZIPs whose links
 * can no longer fetch them (the days before the one a link's lifetime ago). On AWS the bucket's
 * lifecycle rules remove them too, a day or two later.
 */
export async function cleanupTemp(deps: Deps): Promise<CleanupTempDto> {
  return sweepDownloadZips(deps, downloadZipTtlSeconds * 1000);
}
