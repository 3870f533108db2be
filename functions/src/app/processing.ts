import {
  type EventProcessingDto,
  type FailedPhotoDto,
  type FailedPhotoPage,
  messages,
  type RerunFailedRequest,
  type RerunFailedResponse,
} from "@dorsal/shared";
import { countsGeneration, emptyRecountCounts, type RecountCheckpoint } from "../data/events";
import type { PageCursor, PhotoRecord } from "../data/photos";
import type { EventJobInput } from "../jobs/definitions";
import { confidentFaces } from "../ports/vision";
import type { Deps } from "./deps";
import { notFound } from "./errors";
import { settleUploadPhoto } from "./my-uploads";
import { decodeCursor, encodeCursor } from "./page-cursor";
import type { SessionClaims } from "./tokens";
import { assertCanUpload } from "./uploads";

/** The window photosPerMinute is measured over. */
const rateWindowMinutes = 10;
/** Failed photos one re-run call handles for a whole event: keeps each request well inside API Gateway's 29 s. */
const rerunBatch = 50;

/**
 * An event's processing progress (admins; a photographer for the event assigned to them), from its
 * atomic counters and the last ten minute counters.
 */
export async function eventProcessing(
  deps: Deps,
  session: SessionClaims,
  eventId: number,
): Promise<EventProcessingDto> {
  await assertCanUpload(deps, session, eventId);
  const [stats, recent] = await Promise.all([
    deps.events.stats([eventId]),
    deps.events.processedInLastMinutes(eventId, rateWindowMinutes, deps.clock.now()),
  ]);
  const event = stats.get(eventId);
  const totals = {
    totalPhotos: event?.totalPhotos ?? 0,
    processedPhotos: event?.processedPhotos ?? 0,
    failedPhotos: event?.failedPhotos ?? 0,
    duplicatePhotos: event?.duplicatePhotos ?? 0,
  };
  return {
    eventId,
    ...totals,
    pendingPhotos: Math.max(
      0,
      totals.totalPhotos - totals.processedPhotos - totals.failedPhotos - totals.duplicatePhotos,
    ),
    photosPerMinute: recent > 0 ? Math.round((recent / rateWindowMinutes) * 10) / 10 : null,
    lastProcessedAt: event?.lastProcessedAt ?? null,
  };
}

/** A page of the dead-letter list: every event's failed photos, or one event's. */
export async function listFailedPhotos(
  deps: Deps,
  options: { eventId?: number | undefined; cursor?: string | undefined; limit: number },
): Promise<FailedPhotoPage> {
  const page = await deps.photos.listFailed({
    eventId: options.eventId,
    limit: options.limit,
    cursor: decodeCursor(options.cursor),
  });
  const eventIds = [...new Set(page.photos.map((photo) => photo.eventId))];
  const events = await Promise.all(eventIds.map((id) => deps.events.get(id)));
  const names = new Map(events.flatMap((event) => (event ? [[event.id, event.name] as const] : [])));
  const ttl = deps.config.IMAGE_URL_TTL_SECONDS;
  const photos = await Promise.all(
    page.photos.map(
      async (photo): Promise<FailedPhotoDto> => ({
        id: photo.id,
        eventId: photo.eventId,
        eventName: names.get(photo.eventId) ?? null,
        originalFilename: photo.originalFilename,
        failureReason: photo.failureReason,
        failedAt: photo.processedAt,
        attempts: photo.attempts ?? 0,
        // A photo that failed after its variants were made still has a thumbnail worth showing.
        thumbnailUrl: photo.thumbnailKey ? await deps.urls.signedGetUrl("derived", photo.thumbnailKey, ttl) : null,
      }),
    ),
  );
  return { photos, cursor: encodeCursor(page.cursor) };
}

/**
 * Re-runs failed photos through the same starter port a fresh upload takes:
 * 1. reopen each photo (conditional: only a failed photo, so a repeated request starts nothing twice);
 * 2. start an execution named by the re-run number (a new name, as the upload's own one is spent).
 * An execution that cannot be started puts the photo back on the list with the reason.
 */
export async function rerunFailedPhotos(deps: Deps, request: RerunFailedRequest): Promise<RerunFailedResponse> {
  let photoIds: string[];
  let more = false;
  let failedBefore: string | null = null;
  if ("photoIds" in request) {
    photoIds = [...new Set(request.photoIds)];
  } else {
    if (!(await deps.events.get(request.eventId))) throw notFound(messages.eventNotFound);
    // Fixed at the first call: a photo that fails again meanwhile is listed after it and waits for the admin.
    failedBefore = request.failedBefore ?? deps.clock.now().toISOString();
    const page = await deps.photos.listFailed({ eventId: request.eventId, failedBefore, limit: rerunBatch });
    photoIds = page.photos.map((photo) => photo.id);
    more = page.cursor !== undefined;
  }
  let requeued = 0;
  for (const photoId of photoIds) {
    if (await rerunPhoto(deps, photoId)) requeued++;
  }
  return { requeued, more, failedBefore };
}

/**
 * Takes a failed photo off the failed list and back to pending, un-counting it from the event's
 * failures and, if it was counted there, its total (Prepare counts it again, and the run's outcome
 * lands in processed or failed). Undefined when the photo is not failed: nothing changes twice.
 */
export async function reopenFailed(deps: Deps, photoId: string): Promise<PhotoRecord | undefined> {
  const photo = await deps.photos.resetFailed(photoId);
  if (!photo) return undefined;
  await settleUploadPhoto(deps, photo);
  const released = photo.countedInTotal === true && (await deps.photos.releaseFromTotal(photoId));
  await deps.events.addStats(
    photo.eventId,
    { failedPhotos: -1, ...(released ? { totalPhotos: -1 } : {}) },
    deps.clock.now(),
  );
  return photo;
}

async function rerunPhoto(deps: Deps, photoId: string): Promise<boolean> {
  const photo = await reopenFailed(deps, photoId);
  if (!photo) return false;
  try {
    const head = await deps.objects.head("originals", photo.originalKey);
    await deps.pipeline.start({
      bucket: deps.objects.bucketName("originals"),
      key: photo.originalKey,
      size: head?.size ?? 0,
      version: `rerun-${photo.reruns ?? 1}`,
    });
    return true;
  } catch (error) {
    const reason = `${messages.rerunNotStarted}: ${error instanceof Error ? error.message : String(error)}`;
    await failUnstarted(deps, photo, reason.slice(0, 500));
    return false;
  }
}

/** Back on the failed list, counted in the event's total and failures (each once). */
async function failUnstarted(deps: Deps, photo: PhotoRecord, reason: string): Promise<void> {
  const now = deps.clock.now();
  if (!(await deps.photos.markFailed(photo.id, reason, now, photo.eventId))) return;
  await settleUploadPhoto(deps, { ...photo, processingStatus: "failed" });
  const counted = await deps.photos.claimForTotal(photo.id);
  await deps.events.addStats(photo.eventId, { failedPhotos: 1, ...(counted ? { totalPhotos: 1 } : {}) }, now);
}

/**
 * The local runtime's start-up sweep, for uploads whose storage event was lost (the process died
 * between the object store writing the original and the queue recording its execution):
 * - a pending photo whose original is stored and that nothing queued is started again;
 * - a pending photo with no original once its upload URL has expired is failed
 *   ('La subida no se completó'), so the admin sees it instead of a photo pending forever.
 * Runs after the durable queue is restored, and skips what it holds, so nothing is processed twice.
 */
export async function sweepUnstartedUploads(
  deps: Deps,
  options: { isQueued: (key: string) => boolean },
): Promise<{ started: number; failed: number; unreadable: number }> {
  const uploadDeadline = deps.clock.now().getTime() - deps.config.UPLOAD_URL_TTL_SECONDS * 1000;
  let started = 0;
  let failed = 0;
  let unreadable = 0;
  for (const event of await deps.events.list()) {
    let cursor: PageCursor | undefined;
    do {
      const page = await deps.photos.listByEvent(event.id, { unbibbed: false, limit: 100, cursor });
      for (const photo of page.photos) {
        if (photo.processingStatus !== "pending" || options.isQueued(photo.originalKey)) continue;
        // One object the store cannot read must not keep the runtime from starting: it stays pending.
        const head = await deps.objects.head("originals", photo.originalKey).catch(() => null);
        if (head === null) {
          unreadable++;
          continue;
        }
        if (head) {
          const result = await deps.pipeline.start({
            bucket: deps.objects.bucketName("originals"),
            key: photo.originalKey,
            size: head.size,
            version: `sweep-${photo.reruns ?? 0}`,
          });
          if (!result.alreadyStarted) started++;
        } else if (Date.parse(photo.uploadedAt) < uploadDeadline) {
          await failUnstarted(deps, photo, messages.uploadNeverArrived);
          failed++;
        }
      }
      cursor = page.cursor;
    } while (cursor);
  }
  return { started, failed, unreadable };
}

/** Photos (or participants) the recount reads at once, and finishes with a checkpoint. */
const recountPageSize = 200;
/** Bibs whose links the recount counts at once (each is its own small query). */
const linkCountWidth = 8;

export type RecountDeps = Pick<Deps, "events" | "photos" | "participants" | "bibLinks" | "clock">;

/**
 * Recomputes an event's counters from its photos. Neither dynalite nor the pipeline's separate
 * writes are transactions, so a process or Lambda stopped between a photo's state and the counters
 * that follow it leaves a counter one off. The recount reads the counters' `changes` before the
 * photos, and replaces them only if no write moved them meanwhile; each participant's count is
 * replaced only if its own count did not move: a recount that raced a live pipeline changes
 * nothing rather than something wrong. Run at the local runtime's start-up and, on AWS, on a
 * schedule for events that changed since their last recount (`recountChangedEvents`).
 *
 * 1. the photos, a page at a time, reading only the attributes counted;
 * 2. with `links`, the bib counts: each participant's links counted in its own bib partition
 *    (a few bibs at once), never a query per photo. A link whose participant a stopped process
 *    never wrote is found through the photos' bibs in 1, which write the participant first;
 * 3. the counters replaced, the checkpoint removed.
 * Each page ends with a checkpoint (events.saveRecountCheckpoint): a recount stopped anywhere,
 * even killed, continues from there when called again for the event (a checkpoint with links
 * serves a call without). If another run moved the checkpoint meanwhile, this one stops, changing
 * nothing more. With `more`, asked after each checkpoint, a false answer pauses it there
 * (`paused`): the recount workflow's time slices (`recountSlice`).
 */
export async function recountEventStats(
  deps: RecountDeps,
  eventId: number,
  options: { links: boolean; more?: () => boolean },
): Promise<{ replaced: boolean; paused?: true }> {
  const stored = await deps.events.recountCheckpoint(eventId);
  let step = stored?.step;
  let checkpoint: RecountCheckpoint =
    stored && (stored.links || !options.links)
      ? stored
      : {
          links: options.links,
          phase: "photos",
          cursor: null,
          readAtChanges: (await deps.events.stats([eventId])).get(eventId)?.changes ?? 0,
          counts: emptyRecountCounts(),
          step: step ?? 0,
        };
  const advance = async (next: Pick<RecountCheckpoint, "phase" | "cursor" | "counts">): Promise<boolean> => {
    const saved = { ...checkpoint, ...next, step: checkpoint.step + 1 };
    if (!(await deps.events.saveRecountCheckpoint(eventId, saved, step))) return false;
    checkpoint = saved;
    step = saved.step;
    return true;
  };

  while (checkpoint.phase === "photos") {
    const page = await deps.photos.countingPage(eventId, {
      limit: recountPageSize,
      cursor: checkpoint.cursor ?? undefined,
    });
    const counts = { ...checkpoint.counts };
    for (const photo of page.photos) {
      // A duplicate whose removal stopped halfway: already off the counters, gone at the next try.
      if (photo.removedAt) continue;
      if (photo.countedInTotal) counts.totalPhotos++;
      if (photo.processingStatus === "failed") counts.failedPhotos++;
      if (photo.processingStatus === "duplicate") counts.duplicatePhotos++;
      if (deps.photos.isListedAsUnbibbed(photo)) counts.unbibbedPhotos++;
      if (photo.processingStatus === "successful") {
        const ms = photo.recognition?.ms ?? {};
        counts.processedPhotos++;
        counts.facesDetected += confidentFaces(photo.faces).length;
        counts.processingMsTotal += (ms.variants ?? 0) + (ms.decode ?? 0) + (ms.text ?? 0) + (ms.faces ?? 0);
      }
    }
    if (checkpoint.links) await writeMissingParticipants(deps, eventId, page.photos);
    const done = page.cursor === undefined;
    const moved = await advance({
      phase: done ? (checkpoint.links ? "bibs" : "replace") : "photos",
      cursor: page.cursor ?? null,
      counts,
    });
    if (!moved) return { replaced: false };
    if (options.more && !options.more()) return { replaced: false, paused: true };
  }

  while (checkpoint.phase === "bibs") {
    const page = await deps.participants.participantsPage(eventId, {
      limit: recountPageSize,
      cursor: checkpoint.cursor ?? undefined,
    });
    const counts = { ...checkpoint.counts };
    await inPool(page.participants, linkCountWidth, async (participant) => {
      const photoCount = await deps.bibLinks.countPhotos(eventId, participant.dorsalNumber);
      counts.dorsalsDetected += photoCount;
      if (photoCount > 0) counts.bibsWithPhotos++;
      if (photoCount !== participant.photoCount || !participant.ranked) {
        await deps.participants.replaceParticipantCount(
          eventId,
          participant.dorsalNumber,
          photoCount,
          participant.photoCount,
        );
      }
    });
    const moved = await advance({
      phase: page.cursor === undefined ? "replace" : "bibs",
      cursor: page.cursor ?? null,
      counts,
    });
    if (!moved) return { replaced: false };
    if (options.more && !options.more()) return { replaced: false, paused: true };
  }

  const { dorsalsDetected, bibsWithPhotos, ...photoCounts } = checkpoint.counts;
  const replaced = await deps.events.replaceStats(
    eventId,
    checkpoint.links ? { ...photoCounts, dorsalsDetected, bibsWithPhotos } : photoCounts,
    { at: deps.clock.now(), readAtChanges: checkpoint.readAtChanges, allCounters: checkpoint.links },
  );
  await deps.events.clearRecountCheckpoint(eventId);
  return { replaced };
}

/**
 * A link is written before its participant's count (bib-links.ts), so a process stopped between
 * the two can leave a bib whose only participant item is missing: the recount, which counts the
 * participants' links, writes it (at zero, counted right after).
 */
async function writeMissingParticipants(
  deps: RecountDeps,
  eventId: number,
  photos: readonly { detectedDorsals: string[] }[],
): Promise<void> {
  const bibs = [...new Set(photos.flatMap((photo) => photo.detectedDorsals))];
  if (bibs.length === 0) return;
  const stored = await deps.participants.participantCountsOf(eventId, bibs);
  for (const bib of bibs) {
    if (!stored.has(bib)) await deps.participants.replaceParticipantCount(eventId, bib, 0, undefined);
  }
}

/** Runs `work` over `items` with at most `width` in flight. */
async function inPool<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

/**
 * One task of the counter-recount workflow (jobs/definitions.ts): the recount with its bib links,
 * going on from its checkpoint until the slice's time is up or it is over.
 */
export async function recountSlice(
  deps: RecountDeps,
  { eventId }: Pick<EventJobInput, "eventId">,
  sliceMs: number,
): Promise<{ done: boolean }> {
  const endsAt = deps.clock.now().getTime() + sliceMs;
  const { paused } = await recountEventStats(deps, eventId, {
    links: true,
    more: () => deps.clock.now().getTime() < endsAt,
  });
  return { done: !paused };
}

/**
 * The AWS schedule's recount: every event whose counters moved since its last recount (`changes`
 * grew), or were last recounted before some of them were kept, and whose photos have then been
 * still for `quietMinutes`, gets a recount with its bib counts — its own workflow, named after the
 * `changes` it was started for, so an event is recounted once per state of its counters however
 * often the schedule finds it due. Quiet events only, so a recount rarely races the pipeline (and
 * one that does changes nothing); events untouched since their last recount cost one read of their stats.
 */
export async function recountChangedEvents(
  deps: RecountDeps & Pick<Deps, "jobs">,
  options: { quietMinutes: number },
): Promise<{ started: number[] }> {
  const quietSince = new Date(deps.clock.now().getTime() - options.quietMinutes * 60_000).toISOString();
  const events = await deps.events.list();
  const stats = await deps.events.stats(events.map((event) => event.id));
  const started: number[] = [];
  for (const event of events) {
    const eventStats = stats.get(event.id);
    if (!eventStats) continue;
    // Counters kept since the last recount was made (countsGeneration) need one too, once.
    const outdated = eventStats.changes > 0 && eventStats.countsGeneration < countsGeneration;
    if (eventStats.changes <= eventStats.changesAtRecount && !outdated) continue;
    if (eventStats.lastUpdated !== null && eventStats.lastUpdated > quietSince) continue;
    await deps.jobs.start("counterRecount", { eventId: event.id, attempt: eventStats.changes });
    started.push(event.id);
  }
  return { started };
}
