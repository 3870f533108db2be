import { messages, type RemoveDuplicateResponse } from "@dorsal/shared";
import type { Deps } from "./deps";
import { conflict, notFound } from "./errors";

/**
 * Removes a copy of a photo the event already had (state `duplicate`), for admins: it was never
 * processed or published, so only its record, its bib links (none) and its stored original go.
 * 1. the photo must be this event's and still a duplicate (a copy kept on purpose is a photo like
 *    any other and is not removed here);
 * 2. one request claims the removal, and only it takes the photo off the event's counters;
 * 3. the record and the original are deleted, idempotently, so a request that stopped halfway is
 *    finished by the next one.
 * The photo it copied keeps its content-hash guard: the same bytes stay a duplicate if sent again.
 */
export async function removeDuplicatePhoto(
  deps: Deps,
  eventId: number,
  photoId: string,
): Promise<RemoveDuplicateResponse> {
  const photo = await deps.photos.get(photoId);
  if (!photo || photo.eventId !== eventId) throw notFound(messages.notFound);
  if (photo.processingStatus !== "duplicate") throw conflict(messages.onlyDuplicatesRemovable);
  const now = deps.clock.now();
  if (await deps.photos.claimDuplicateRemoval(photoId, now)) {
    await deps.events.addStats(
      eventId,
      { duplicatePhotos: -1, ...(photo.countedInTotal ? { totalPhotos: -1 } : {}) },
      now,
    );
  }
  await deps.eventDeletion.deletePhoto(photoId);
  await deps.objects.delete("originals", photo.originalKey);
  return { removed: true, photoId };
}
