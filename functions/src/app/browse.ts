import {
  type BibPhotoPage,
  type DorsalPage,
  limits,
  messages,
  normaliseBib,
  type PublicEventDto,
  type SearchMode,
  salesMessages,
} from "@dorsal/shared";
import type { EventRecord } from "../data/events";
import { athleteSeesClean } from "./athletes";
import type { Deps } from "./deps";
import { forbidden, notFound } from "./errors";
import { listEvents } from "./events";
import { inUploadOrder, toPhotoDto, toPublicPhotoDto } from "./photo-view";
import { participantNameOf } from "./start-lists";
import type { SessionClaims } from "./tokens";

/**
 * Public browsing (spec §2.6): events with photos → the event's bibs, 100 per page → a bib's
 * photos, a page at a time. `free` narrows everything to events with free photos (/free-photos).
 */

/** GET /api/events/all-with-photos and GET /api/free-events. */
export async function eventsWithPhotos(deps: Deps, options: { free: boolean }): Promise<PublicEventDto[]> {
  return (await listEvents(deps, { asAdmin: false }))
    .filter((event) => event.photoCount > 0 && (!options.free || event.freePhotosEnabled))
    .map(({ id, name, date, location, status, freePhotosEnabled, requiresAthleteLogin, photoCount }) => ({
      id,
      name,
      date,
      location,
      status,
      freePhotosEnabled,
      requiresAthleteLogin,
      photoCount,
    }));
}

async function browsableEvent(deps: Deps, eventId: number, options: { free: boolean }): Promise<EventRecord> {
  const event = await deps.events.get(eventId);
  if (!event || (options.free && !event.freePhotosEnabled)) throw notFound(messages.eventNotFound);
  return event;
}

/**
 * One page of the event's bib grid, in bib order. The participant items hold each bib's photo
 * count; an event has at most a few thousand bibs, so the list is read whole (kept between
 * requests until a count changes: participants.bibsWithPhotos) and the page is cut here.
 */
export async function dorsalPage(
  deps: Deps,
  eventId: number,
  page: number,
  options: { free: boolean },
): Promise<DorsalPage> {
  const [, withPhotos] = await Promise.all([
    browsableEvent(deps, eventId, options),
    deps.participants.bibsWithPhotos(eventId),
  ]);
  const pageSize = limits.bibGridPageSize;
  const totalPages = Math.max(1, Math.ceil(withPhotos.length / pageSize));
  const current = Math.min(page, totalPages);
  return {
    dorsals: withPhotos.slice((current - 1) * pageSize, current * pageSize),
    page: current,
    pageSize,
    total: withPhotos.length,
    totalPages,
  };
}

/**
 * One page of a bib's processed photos, oldest upload first: the public copy (watermarked, or
 * GRATIS/DEMO for free events), or the clean one for a signed-in athlete on an event open to
 * athletes and for an admin in admin mode. The cursor is the offset of the next page.
 */
export async function bibPhotoPage(
  deps: Deps,
  eventId: number,
  dorsalNumber: string,
  paging: { cursor: number; limit: number },
  options: { free: boolean; session: SessionClaims | undefined; mode: SearchMode },
): Promise<BibPhotoPage> {
  const adminMode = options.mode === "admin";
  // The route is public, so the session decides: asking for admin mode proves nothing.
  if (adminMode && options.session?.role !== "admin") throw forbidden(messages.adminSearchOnly);
  const bib = normaliseBib(dorsalNumber);
  // Independent reads, started together: the answer waits for the slowest, not for their sum.
  const [event, found, participantName] = await Promise.all([
    browsableEvent(deps, eventId, options),
    deps.bibLinks.photoIdsForBib(eventId, bib).then((ids) => deps.photos.getViews(ids)),
    participantNameOf(deps, eventId, bib),
  ]);
  const photos = found.filter((photo) => photo.processingStatus === "successful").sort(inUploadOrder);
  const slice = photos.slice(paging.cursor, paging.cursor + paging.limit);
  const clean = adminMode || athleteSeesClean(event, options.session);
  const next = paging.cursor + slice.length;
  return {
    eventId,
    dorsalNumber: bib,
    participantName,
    totalFound: photos.length,
    photos: await Promise.all(
      slice.map((photo) => (clean ? toPhotoDto(deps, photo) : toPublicPhotoDto(deps, photo, event))),
    ),
    nextCursor: next < photos.length ? String(next) : null,
  };
}

/** POST /api/photos/by-ids: the purchase screen's chosen photos, as the public sees them. */
export async function photosByIds(deps: Deps, photoIds: string[]) {
  const photos = (await deps.photos.getViews(photoIds)).filter((photo) => photo.processingStatus === "successful");
  const events = new Map<number, EventRecord | undefined>();
  for (const photo of photos)
    if (!events.has(photo.eventId)) events.set(photo.eventId, await deps.events.get(photo.eventId));
  return Promise.all(
    photos.flatMap((photo) => {
      const event = events.get(photo.eventId);
      return event ? [toPublicPhotoDto(deps, photo, event)] : [];
    }),
  );
}

/** GET /api/free-photos/download/{photoId}: the GRATIS/DEMO copy, only while the event gives its photos away. */
export async function freePhotoUrl(deps: Deps, photoId: string): Promise<string> {
  const photo = await deps.photos.get(photoId);
  if (photo?.processingStatus !== "successful" || !photo.gratisKey) throw notFound(messages.notFound);
  const event = await deps.events.get(photo.eventId);
  if (!event?.freePhotosEnabled) throw forbidden(salesMessages.eventNotFree);
  return deps.urls.signedGetUrl("derived", photo.gratisKey, 120);
}
