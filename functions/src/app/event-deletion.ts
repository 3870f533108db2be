import { type EventDeletionCounts, type EventDeletionDto, messages } from "@dorsal/shared";
import {
  type EventDeletionRecord,
  type EventDeletionStep,
  eventDeletionSteps,
  type SweepSlice,
} from "../data/event-deletion";
import type { EventJobInput } from "../jobs/definitions";
import { throttledPasswordCheck } from "./auth";
import type { Deps } from "./deps";
import { forbidden, notFound } from "./errors";
import { faultPoint } from "./faults";
import { verifyPassword } from "./passwords";
import { storagePaths, zipUploadKey } from "./storage-paths";
import type { RequestClient } from "./throttle";
import type { SessionClaims } from "./tokens";

/**
 * Deletes an event (spec §6: only an admin, confirmed with their own password): checks the event
 * exists and the password is the calling admin's, records the deletion, removes the event item —
 * from then on every page, upload and pipeline step finds the event gone, and a second request is
 * answered 404 — and starts the background workflow that removes the rest (`deleteEventSlice`).
 */
export async function deleteEvent(
  deps: Deps,
  session: SessionClaims,
  eventId: number,
  adminPassword: string,
  client: RequestClient,
): Promise<EventDeletionDto> {
  const event = await deps.events.get(eventId);
  if (!event) throw notFound(messages.eventNotFound);
  const admin = await deps.users.get(session.userId);
  // 403, not 401: the session is fine, and a 401 would make the browser sign the admin out.
  if (!admin) throw forbidden(messages.eventDeleteRefused);
  // Under the sign-in throttle: a stolen session must not become a way to guess the password.
  const checked = () => verifyPassword(adminPassword, admin.passwordHash);
  if (!(await throttledPasswordCheck(deps, admin.email, client, checked))) throw forbidden(messages.eventDeleteRefused);

  const stats = (await deps.events.stats([eventId])).get(eventId);
  // Recorded before the event goes: a process killed in between leaves a deletion the next start finishes.
  const deletion = await deps.eventDeletion.begin({
    eventId,
    eventName: event.name,
    photosAtStart: stats?.totalPhotos ?? 0,
    startedAt: deps.clock.now().toISOString(),
  });
  if (!(await deps.eventDeletion.deleteEvent(eventId))) throw notFound(messages.eventNotFound);
  await deps.jobs.start("eventDeletion", { eventId, attempt: deletion.attempt });
  return deletionDto(deletion);
}

/** The deletions still running and those finished in the last day, newest first. */
export async function listEventDeletions(deps: Deps): Promise<EventDeletionDto[]> {
  const dayAgo = new Date(deps.clock.now().getTime() - 24 * 60 * 60 * 1000).toISOString();
  const deletions = await deps.eventDeletion.list();
  return deletions
    .filter((deletion) => deletion.status === "running" || (deletion.finishedAt ?? "") > dayAgo)
    .sort((a, b) => b.startedAt.localeCompare(a.startedAt))
    .map(deletionDto);
}

/**
 * One task of the deletion workflow: goes on from the recorded step, a page at a time, until the
 * slice's time is up or everything is gone. Every page is recorded as it goes, so a slice that dies
 * (a kill, a Lambda timeout) costs the next one at most a page of reading. The steps, in order:
 * the event item, its photographers' assignments and its faces kept for selfie search; the event's own partition (stats,
 * configuration, minute counters, participants with their bib links) — first, so photos the
 * pipeline finishes meanwhile find it nearly empty when they clean up after themselves
 * (`discardPhotoOfDeletedEvent`); the duplicate guards; the ZIP batches with their ZIPs; the uploads;
 * the photos in every state; and last, every stored object under the event's prefix.
 */
export async function deleteEventSlice(
  deps: Deps,
  { eventId }: Pick<EventJobInput, "eventId">,
  sliceMs: number,
): Promise<{ done: boolean }> {
  const deletion = await deps.eventDeletion.get(eventId);
  if (!deletion || deletion.status === "done") return { done: true };
  const endsAt = deps.clock.now().getTime() + sliceMs;
  const more = () => deps.clock.now().getTime() < endsAt;
  const stepsLeft = eventDeletionSteps.slice(eventDeletionSteps.indexOf(deletion.step));
  for (const [index, step] of stepsLeft.entries()) {
    const slice: SweepSlice = {
      more,
      deleted: async (counts) => {
        await deps.eventDeletion.progress(eventId, step, counts, deps.clock.now().toISOString());
        faultPoint(deps.config, "event-deletion-page");
      },
    };
    if (!(await deletionStep(deps, eventId, step, slice))) return { done: false };
    const next = stepsLeft[index + 1];
    if (!next) break;
    await deps.eventDeletion.progress(eventId, next, {}, deps.clock.now().toISOString());
    if (!more()) return { done: false };
  }
  await deps.eventDeletion.finish(eventId, deps.clock.now());
  return { done: true };
}

/** Runs one step as far as the slice allows; true when the step has nothing left. */
async function deletionStep(deps: Deps, eventId: number, step: EventDeletionStep, slice: SweepSlice) {
  const deletion = deps.eventDeletion;
  switch (step) {
    case "event":
      // Selfie search's faces (Rekognition's collection in AWS; locally the partition's sweep would
      // too) go first, while the event still says it has them: a run resumed after a crash here
      // finds the event again, and an event that never had the search on costs no call at all.
      if ((await deps.events.get(eventId))?.faceSearch === true) await deps.faceSearch.removeEvent(eventId);
      await deletion.deleteEvent(eventId);
      await deps.assignments.removeAllOfEvent(eventId);
      return true;
    case "partition":
      return deletion.sweepEventPartition(eventId, slice);
    case "hashes":
      return deletion.sweepContentHashes(eventId, slice);
    case "zips":
      return deletion.sweepZipBatches(eventId, slice, async (batches) => {
        let objects = 0;
        for (const { batchId } of batches)
          objects += await deps.objects.deletePrefix("originals", zipUploadKey(batchId));
        return { objects };
      });
    case "uploads":
      return deletion.sweepUploads(eventId, slice);
    case "photos":
      return deletion.sweepPhotos(eventId, slice);
    case "objects":
      for (const bucket of ["originals", "derived"] as const) {
        for (;;) {
          const objects = await deps.objects.deletePrefix(bucket, storagePaths.event(eventId), { maxPages: 1 });
          if (objects === 0) break;
          await slice.deleted?.({ objects });
          if (slice.more && !slice.more()) return false;
        }
      }
      return true;
  }
}

/**
 * Each step's share of a deletion's time, roughly (bench:scale): the photo items and the objects
 * (six per processed photo) are most of it.
 */
const stepWeights: Record<EventDeletionStep, number> = {
  event: 0,
  partition: 0.15,
  hashes: 0.05,
  zips: 0.05,
  uploads: 0.05,
  photos: 0.35,
  objects: 0.35,
};

/** How far within a step, from its count against what the event held when its deletion began. */
function withinStep(deletion: EventDeletionRecord): number {
  const photos = Math.max(1, deletion.photosAtStart);
  const share: Partial<Record<EventDeletionStep, number>> = {
    partition: deletion.bibLinks / photos,
    hashes: deletion.contentHashes / photos,
    photos: deletion.photos / photos,
    objects: deletion.objects / (photos * 6),
  };
  return Math.min(1, share[deletion.step] ?? 0);
}

function deletionDto(deletion: EventDeletionRecord): EventDeletionDto {
  const done = eventDeletionSteps
    .slice(0, eventDeletionSteps.indexOf(deletion.step))
    .reduce((total, step) => total + stepWeights[step], 0);
  const progress =
    deletion.status === "done" ? 1 : Math.min(0.99, done + stepWeights[deletion.step] * withinStep(deletion));
  const deleted: EventDeletionCounts = {
    photos: deletion.photos,
    bibLinks: deletion.bibLinks,
    participants: deletion.participants,
    contentHashes: deletion.contentHashes,
    zipBatches: deletion.zipBatches,
    uploads: deletion.uploads,
    objects: deletion.objects,
  };
  return {
    eventId: deletion.eventId,
    eventName: deletion.eventName,
    status: deletion.status,
    startedAt: deletion.startedAt,
    finishedAt: deletion.finishedAt ?? null,
    photosAtStart: deletion.photosAtStart,
    progress: Math.round(progress * 1000) / 1000,
    deleted,
  };
}

/**
 * Starts again the deletions that stopped before the end: a local runtime killed midway (at its
 * start-up, `stalledMinutes` 0), or a workflow that failed for good in AWS (the hourly schedule:
 * none of its slices has recorded anything for `stalledMinutes`). Each gets a new attempt, claimed
 * so that only one caller starts it.
 */
export async function resumeEventDeletions(deps: Deps, { stalledMinutes }: { stalledMinutes: number }) {
  const stalledBefore = new Date(deps.clock.now().getTime() - stalledMinutes * 60_000).toISOString();
  const resumed: number[] = [];
  for (const deletion of await deps.eventDeletion.list()) {
    if (deletion.status !== "running" || deletion.updatedAt > stalledBefore) continue;
    const claimed = await deps.eventDeletion.retry(deletion, deps.clock.now().toISOString());
    if (!claimed) continue;
    await deps.jobs.start("eventDeletion", { eventId: claimed.eventId, attempt: claimed.attempt });
    resumed.push(claimed.eventId);
  }
  return resumed;
}

/**
 * A pipeline step found the photo's event deleted: whatever the execution wrote after the
 * deletion's sweep had passed goes too — the photo with its bib links, the items its counters and
 * links re-created in the event's partition, its duplicate guard and its stored copies. Every
 * delete is idempotent, so a retried or concurrent cleanup changes nothing.
 */
export async function discardPhotoOfDeletedEvent(
  deps: Deps,
  photo: { eventId: number; photoId: string; originalKey: string },
): Promise<void> {
  const { eventId, photoId } = photo;
  await deps.eventDeletion.deletePhoto(photoId);
  await deps.eventDeletion.sweepEventPartition(eventId);
  await deps.eventDeletion.sweepContentHashes(eventId);
  await Promise.all([
    deps.objects.delete("originals", photo.originalKey),
    ...[
      storagePaths.web(eventId, photoId),
      storagePaths.thumbnail(eventId, photoId),
      storagePaths.preview(eventId, photoId),
      storagePaths.previewThumbnail(eventId, photoId),
      storagePaths.gratis(eventId, photoId),
      storagePaths.working(eventId, photoId),
    ].map((key) => deps.objects.delete("derived", key)),
  ]);
}
