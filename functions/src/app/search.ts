import { messages, normaliseBib, type SearchResponse } from "@dorsal/shared";
import { athleteSeesClean } from "./athletes";
import type { Deps } from "./deps";
import { notFound } from "./errors";
import { inUploadOrder, toPhotoDto, toPublicPhotoDto } from "./photo-view";
import { participantNameOf } from "./start-lists";
import type { SessionClaims } from "./tokens";

/**
 * Finds an event's photos of one bib: the bib's links give the photo ids, one batch read gives
 * the photos; only processed photos are shown, newest upload last, never as the clean copy.
 */
export async function searchByBib(
  deps: Deps,
  eventId: number,
  dorsalNumber: string,
  session?: SessionClaims,
): Promise<SearchResponse> {
  const bib = normaliseBib(dorsalNumber);
  // Independent reads, started together: the answer waits for the slowest, not for their sum.
  const [event, found, participantName] = await Promise.all([
    deps.events.get(eventId),
    deps.bibLinks.photoIdsForBib(eventId, bib).then((ids) => deps.photos.getViews(ids)),
    participantNameOf(deps, eventId, bib),
  ]);
  if (!event) throw notFound(messages.eventNotFound);
  const photos = found.filter((photo) => photo.processingStatus === "successful").sort(inUploadOrder);
  return {
    totalFound: photos.length,
    dorsalNumber: bib,
    // The name the organizer's start list gives the bib, so the athlete sees these are their photos.
    participantName,
    // Public: the watermarked or GRATIS/DEMO copy, as the event stands right now; clean for a
    // signed-in athlete when the event opens its photos to athletes.
    photos: await Promise.all(
      photos.map((photo) =>
        athleteSeesClean(event, session) ? toPhotoDto(deps, photo) : toPublicPhotoDto(deps, photo, event),
      ),
    ),
  };
}

/** For admins and photographers (the route's access says who): the clean copy. */
export async function getPhoto(deps: Deps, photoId: string) {
  const photo = await deps.photos.get(photoId);
  if (!photo) throw notFound(messages.notFound);
  return toPhotoDto(deps, photo);
}
