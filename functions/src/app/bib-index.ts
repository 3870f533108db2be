import {
  type BibRuleConfig,
  checkManualBib,
  type DetectedBib,
  defaultBibRules,
  type EventRecognitionSettings,
  extractBibs,
  type ManualBibs,
  messages,
  normaliseBib,
  type PhotoDto,
  type PhotoPage,
  type ReindexResponse,
  splitByStartList,
  startListMessages,
} from "@dorsal/shared";
import type { PhotoRecord } from "../data/photos";
import type { FaceDetection, TextDetection } from "../ports/vision";
import type { Deps } from "./deps";
import { conflict, invalid, notFound } from "./errors";
import { noticeBibPhoto } from "./notifications";
import { decodeCursor, encodeCursor } from "./page-cursor";
import { toDuplicateDto, toPhotoDto } from "./photo-view";

/** The bib rules an event's configuration asks for; the rest keep their measured defaults. */
export function rulesFor(config: EventRecognitionSettings): BibRuleConfig {
  return {
    ...defaultBibRules,
    ocrConfidenceThreshold: config.ocrConfidenceThreshold,
    maxDorsalsPerPhoto: config.maxDorsalsPerPhoto,
    enableMultiDorsalSupport: config.enableMultiDorsalSupport,
    dorsalSizeThreshold: config.dorsalSizeThreshold,
    minDigits: config.minDigits,
    maxDigits: config.maxDigits,
    allowLeadingZeros: config.allowLeadingZeros,
    bibPattern: config.bibPattern,
  };
}

/** The bibs the rules read in a photo's text; faces let them tell a runner's bib from a banner. */
export function machineBibsFrom(
  textDetections: TextDetection[],
  faces: FaceDetection[],
  config: EventRecognitionSettings,
): DetectedBib[] {
  const words = textDetections.filter((detection) => detection.type === "WORD");
  return extractBibs(words, rulesFor(config), faces).map((bib) => ({ ...bib, source: "machine" as const }));
}

/** Manual corrections win: removed numbers go, added ones come in even if the machine never saw them. */
export function effectiveBibs(machine: DetectedBib[], manual: ManualBibs): DetectedBib[] {
  const removed = new Set(manual.removed);
  const kept = machine.filter((bib) => !removed.has(bib.number));
  const present = new Set(kept.map((bib) => bib.number));
  const added = manual.added
    .filter((number) => !present.has(number))
    .map((number): DetectedBib => ({ number, confidence: 100, box: null, source: "manual" }));
  return [...kept, ...added];
}

/**
 * What a photo is found under, with a start list: only machine reads on the list (every read
 * without one) — then the manual corrections as ever. A read off the list waits as a suggestion
 * until the organizer accepts a listed bib for it, adds it by hand or removes it.
 */
export function publishedBibs(
  machine: DetectedBib[],
  manual: ManualBibs,
  listed: ReadonlySet<string> | undefined,
): { bibs: DetectedBib[]; suggestions: NonNullable<PhotoRecord["bibSuggestions"]> } {
  const split = splitByStartList(
    machine.map((bib) => bib.number),
    listed,
  );
  const onList = new Set(split.published);
  const bibs = effectiveBibs(
    machine.filter((bib) => onList.has(bib.number)),
    manual,
  );
  const settled = new Set([...manual.removed, ...bibs.map((bib) => bib.number)]);
  return { bibs, suggestions: split.suggestions.filter((suggestion) => !settled.has(suggestion.number)) };
}

const sameNumbers = (a: string[], b: string[]) => a.length === b.length && a.every((n, i) => n === b[i]);

/**
 * Sets a photo's bibs and makes search agree:
 * 1. derive the effective bibs from the machine's and the organizer's, under the event's start
 *    list when it has one (both first processing and the re-index come through here);
 * 2. write them to the photo under its version (a concurrent change makes us re-read and retry);
 * 3. reconcile the photo's bib links with them — only new links and real removals move the
 *    participants' and the event's counts, so repeating this changes nothing.
 * Returns whether the photo's bibs changed.
 */
export async function setPhotoBibs(
  deps: Deps,
  photoId: string,
  change: (photo: PhotoRecord) => { machineBibs?: DetectedBib[]; manualBibs?: ManualBibs },
): Promise<{ changed: boolean; photo: PhotoRecord }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const photo = await deps.photos.get(photoId);
    if (!photo) throw notFound(messages.notFound);
    const requested = change(photo);
    const machineBibs = requested.machineBibs ?? photo.machineBibs ?? [];
    const manualBibs = requested.manualBibs ?? photo.manualBibs ?? { added: [], removed: [] };
    const { bibs, suggestions } = publishedBibs(machineBibs, manualBibs, await deps.startLists.bibs(photo.eventId));
    const detectedDorsals = bibs.map((bib) => bib.number);
    const next = { machineBibs, manualBibs, bibs, detectedDorsals, bibSuggestions: suggestions };
    const changed =
      !sameNumbers(detectedDorsals, photo.detectedDorsals ?? []) ||
      JSON.stringify(bibs) !== JSON.stringify(photo.bibs ?? []) ||
      JSON.stringify(suggestions) !== JSON.stringify(photo.bibSuggestions ?? []);
    const listedAsUnbibbed = deps.photos.isListedAsUnbibbed(photo);
    const shouldBeListed = detectedDorsals.length === 0 && photo.processingStatus === "successful";
    const needsWrite = changed || listedAsUnbibbed !== shouldBeListed;
    if (needsWrite && !(await deps.photos.writeBibs(photo, photo.bibsVersion ?? 0, next))) continue;
    const updated = { ...photo, ...next };
    await reconcileLinks(deps, updated);
    return { changed, photo: updated };
  }
  throw conflict("La foto está siendo modificada; inténtalo de nuevo");
}

async function reconcileLinks(deps: Deps, photo: PhotoRecord): Promise<void> {
  const linked = new Set(await deps.bibLinks.linkedBibs(photo.id));
  const wanted = new Set(photo.detectedDorsals);
  for (const bib of wanted) {
    if (!linked.has(bib) && (await deps.bibLinks.linkBib(photo.eventId, bib, photo.id, photo.uploadedAt)))
      await noticeBibPhoto(deps, photo.eventId, bib);
  }
  for (const bib of linked) {
    if (!wanted.has(bib)) await deps.bibLinks.unlinkBib(photo.eventId, bib, photo.id);
  }
}

/**
 * The review screen's view of photos: each one's suggestions with the names the start list gives
 * the bibs they point to (one batch read for the whole page). Admins only: names stay off public views.
 */
export async function toReviewPhotoDtos(deps: Deps, eventId: number, photos: PhotoRecord[]): Promise<PhotoDto[]> {
  const suggested = photos.flatMap((photo) => (photo.bibSuggestions ?? []).flatMap((suggestion) => suggestion.nearest));
  const participants = await deps.startLists.entries(eventId, suggested);
  return Promise.all(
    photos.map(async (photo) => ({
      ...(await toPhotoDto(deps, photo)),
      suggestions: (photo.bibSuggestions ?? []).map((suggestion) => ({
        number: suggestion.number,
        nearest: suggestion.nearest.map((dorsalNumber) => ({
          dorsalNumber,
          name: participants.get(dorsalNumber)?.name ?? null,
        })),
      })),
    })),
  );
}

async function toReviewPhotoDto(deps: Deps, photo: PhotoRecord): Promise<PhotoDto> {
  const [dto] = await toReviewPhotoDtos(deps, photo.eventId, [photo]);
  return dto as PhotoDto;
}

async function processedPhotoOfEvent(deps: Deps, eventId: number, photoId: string): Promise<PhotoRecord> {
  const photo = await deps.photos.get(photoId);
  if (!photo || photo.eventId !== eventId) throw notFound(messages.notFound);
  if (photo.processingStatus !== "successful") throw invalid("La foto aún no está procesada");
  return photo;
}

/**
 * An organizer tags a bib by hand: it stays even if the machine never reads it. What was typed must
 * be a bib of this event (its configured digits), or it is refused with the reason.
 */
export async function addManualBib(deps: Deps, eventId: number, photoId: string, typed: string) {
  await processedPhotoOfEvent(deps, eventId, photoId);
  const checked = checkManualBib(typed, await deps.eventConfigs.get(eventId));
  if ("error" in checked) throw invalid(checked.error, [{ path: "dorsalNumber", message: checked.error }]);
  const bib = checked.number;
  const { photo } = await setPhotoBibs(deps, photoId, (current) => ({
    manualBibs: {
      added: [...new Set([...current.manualBibs.added, bib])],
      removed: current.manualBibs.removed.filter((n) => n !== bib),
    },
  }));
  return toReviewPhotoDto(deps, photo);
}

/** An organizer removes a bib: a machine read stays removed on every re-run. */
export async function removeBib(deps: Deps, eventId: number, photoId: string, bib: string) {
  await processedPhotoOfEvent(deps, eventId, photoId);
  const { photo } = await setPhotoBibs(deps, photoId, (current) => ({
    manualBibs: {
      added: current.manualBibs.added.filter((n) => n !== bib),
      removed: current.machineBibs.some((b) => b.number === bib)
        ? [...new Set([...current.manualBibs.removed, bib])]
        : current.manualBibs.removed,
    },
  }));
  return toReviewPhotoDto(deps, photo);
}

/**
 * An organizer accepts one of a suggestion's listed bibs: it becomes a manual bib, and the read it
 * replaces is removed, so the suggestion is settled for good (re-runs included).
 */
export async function acceptSuggestion(deps: Deps, eventId: number, photoId: string, read: string, chosen: string) {
  const photo = await processedPhotoOfEvent(deps, eventId, photoId);
  const suggestion = (photo.bibSuggestions ?? []).find((candidate) => candidate.number === read);
  if (!suggestion) throw conflict(startListMessages.suggestionGone);
  const bib = normaliseBib(chosen);
  if (!suggestion.nearest.includes(bib)) throw invalid(startListMessages.notNearest);
  const { photo: updated } = await setPhotoBibs(deps, photoId, (current) => ({
    manualBibs: {
      added: [...new Set([...current.manualBibs.added, bib])],
      removed: [...new Set([...current.manualBibs.removed.filter((n) => n !== bib), read])],
    },
  }));
  return toReviewPhotoDto(deps, updated);
}

export async function listEventPhotos(
  deps: Deps,
  eventId: number,
  options: { unbibbed: boolean; limit: number; cursor?: string | undefined },
): Promise<PhotoPage> {
  if (!(await deps.events.get(eventId))) throw notFound(messages.eventNotFound);
  const page = await deps.photos.listByEvent(eventId, {
    unbibbed: options.unbibbed,
    limit: options.limit,
    cursor: decodeCursor(options.cursor),
  });
  const holderIds = page.photos.flatMap((photo) =>
    photo.processingStatus === "duplicate" && photo.duplicateOf ? [photo.duplicateOf] : [],
  );
  const holders = new Map((await deps.photos.getMany([...new Set(holderIds)])).map((photo) => [photo.id, photo]));
  const reviewed = new Map(
    (
      await toReviewPhotoDtos(
        deps,
        eventId,
        page.photos.filter((photo) => photo.processingStatus !== "duplicate"),
      )
    ).map((dto) => [dto.id, dto]),
  );
  return {
    photos: await Promise.all(
      page.photos.map(
        (photo) =>
          reviewed.get(photo.id) ??
          toDuplicateDto(deps, photo, photo.duplicateOf ? holders.get(photo.duplicateOf) : undefined),
      ),
    ),
    cursor: encodeCursor(page.cursor),
  };
}

/**
 * Re-derives every processed photo's bibs from its stored text under the event's current
 * configuration, one page per call (the caller follows the cursor and shows progress). Manual
 * corrections are kept; nothing is duplicated, and running it twice changes nothing the second time.
 */
export async function reindexEvent(
  deps: Deps,
  eventId: number,
  options: { cursor?: string | undefined; limit: number },
): Promise<ReindexResponse> {
  if (!(await deps.events.get(eventId))) throw notFound(messages.eventNotFound);
  const config = await deps.eventConfigs.get(eventId);
  const page = await deps.photos.listByEvent(eventId, {
    unbibbed: false,
    limit: options.limit,
    cursor: decodeCursor(options.cursor),
  });
  let changed = 0;
  for (const listed of page.photos) {
    if (listed.processingStatus !== "successful") continue;
    const text = await deps.photos.textOf(listed);
    const result = await setPhotoBibs(deps, listed.id, (photo) => ({
      machineBibs: machineBibsFrom(text, photo.faces ?? [], config),
    }));
    if (result.changed) changed++;
    // Re-indexing reads every photo's text anyway: an older photo's moves to its own item on the way.
    await deps.photos.moveTextApart(listed);
  }
  return { processed: page.photos.length, changed, cursor: encodeCursor(page.cursor) };
}
