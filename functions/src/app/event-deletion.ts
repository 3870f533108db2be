import { type DeleteEventResponse, messages } from "@dorsal/shared";
import { throttledPasswordCheck } from "./auth";
import type { Deps } from "./deps";
import { forbidden, notFound } from "./errors";
import { verifyPassword } from "./passwords";
import { storagePaths, zipUploadKey } from "./storage-paths";
import type { RequestClient } from "./throttle";
import type { SessionClaims } from "./tokens";

/**
 * Deletes an event and everything of it (spec §6: only an admin, confirmed with their own password):
 * 1. check the event exists and the password is the calling admin's;
 * 2. delete the event item first, so uploads, readers and the pipeline find it gone from now on
 *    and a second request is answered 404;
 * 3. sweep its table items a page at a time with batch deletes: the event partition (stats,
 *    configuration, pricing, minute counters, participants with their bib links), the duplicate
 *    guards, the ZIP batches, the photographers' assignments to it, the uploads made to it and,
 *    last and longest, the photos in every state;
 * 4. delete every stored object under the event's prefix in both buckets, and the uploaded ZIPs.
 * Photos still in the pipeline meanwhile clean up after themselves (`discardPhotoOfDeletedEvent`).
 */
export async function deleteEvent(
  deps: Deps,
  session: SessionClaims,
  eventId: number,
  adminPassword: string,
  client: RequestClient,
): Promise<DeleteEventResponse> {
  if (!(await deps.events.get(eventId))) throw notFound(messages.eventNotFound);
  const admin = await deps.users.get(session.userId);
  // 403, not 401: the session is fine, and a 401 would make the browser sign the admin out.
  if (!admin) throw forbidden(messages.eventDeleteRefused);
  // Under the sign-in throttle: a stolen session must not become a way to guess the password.
  const checked = () => verifyPassword(adminPassword, admin.passwordHash);
  if (!(await throttledPasswordCheck(deps, admin.email, client, checked))) throw forbidden(messages.eventDeleteRefused);
  if (!(await deps.eventDeletion.deleteEvent(eventId))) throw notFound(messages.eventNotFound);

  // The partition first: photos the pipeline finishes during the long photo sweep then find it
  // nearly empty when they clean up after themselves.
  const { participants, bibLinks } = await deps.eventDeletion.sweepEventPartition(eventId);
  const contentHashes = await deps.eventDeletion.sweepContentHashes(eventId);
  let zipObjects = 0;
  const zipBatches = await deps.eventDeletion.sweepZipBatches(eventId, async (batches) => {
    for (const { batchId } of batches)
      zipObjects += await deps.objects.deletePrefix("originals", zipUploadKey(batchId));
  });
  await deps.assignments.removeAllOfEvent(eventId);
  const uploads = await deps.eventDeletion.sweepUploads(eventId);
  const photos = await deps.eventDeletion.sweepPhotos(eventId);
  const [originals, derived] = await Promise.all([
    deps.objects.deletePrefix("originals", storagePaths.event(eventId)),
    deps.objects.deletePrefix("derived", storagePaths.event(eventId)),
  ]);
  return {
    success: true,
    eventId,
    deleted: {
      photos,
      bibLinks,
      participants,
      contentHashes,
      zipBatches,
      uploads,
      objects: originals + derived + zipObjects,
    },
  };
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
