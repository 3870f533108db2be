import { type EventConfigDto, messages } from "@dorsal/shared";
import {
  type FaceForgetResponse,
  type FaceSearchResponse,
  faceSearchFields,
  faceSearchMessages,
  selfieMaxBytes,
} from "@dorsal/shared/face-search";
import type { EventRecord } from "../data/events";
import type { MultipartForm } from "../http/multipart";
import type { EventJobInput } from "../jobs/definitions";
import type { FaceMatch } from "../ports/face-search";
import { type BoundingBox, confidentFaces, type FaceDetection } from "../ports/vision";
import type { Deps } from "./deps";
import { AppError, invalid, notFound, tooLarge, unsupported } from "./errors";
import { getEventConfig } from "./events";
import { decodeHeic } from "./heic";
import { sniffImageType } from "./image-types";
import { inUploadOrder, toPublicPhotoDto } from "./photo-view";
import { addressClient, type RequestClient, throttledCheck } from "./throttle";

/**
 * A second face at least this tall beside the largest one (as a share of its height) makes the
 * selfie ambiguous: two people at the front of the picture. A face far behind is someone passing.
 */
const ambiguousFaceShare = 0.6;

/**
 * 'Búsqueda por selfie' on or off for an event (admins only: the route's access). On: photos
 * processed from now on have their faces kept for search. Off: every face kept for the event is
 * deleted before the answer, so nothing biometric outlives the switch.
 */
export async function setFaceSearch(deps: Deps, eventId: number, enabled: boolean): Promise<EventConfigDto> {
  const event = await deps.events.get(eventId);
  if (!event) throw notFound(messages.eventNotFound);
  const switched = (event.faceSearch === true) !== enabled;
  if (switched) {
    if (!(await deps.events.update(eventId, { faceSearch: enabled, updatedAt: deps.clock.now().toISOString() }))) {
      throw notFound(messages.eventNotFound);
    }
  }
  if (!enabled) await deps.faceSearch.removeEvent(eventId);
  // Photos processed before: described in the background, their progress in the configuration.
  const photos = (await deps.events.stats([eventId])).get(eventId)?.totalPhotos ?? 0;
  if (switched && enabled && photos > 0) {
    const model = await deps.faceSearch.descriptorModel();
    const run = await deps.faceIndexing.begin(eventId, photos, deps.clock.now().toISOString(), model);
    await deps.jobs.start("faceIndexing", { eventId, attempt: run.attempt });
  }
  return getEventConfig(deps, eventId);
}

/** Photos one page of the indexing reads: each is an original to read and describe. */
const indexingPageSize = 10;

/**
 * One task of the face-indexing workflow (jobs/definitions.ts), started by switching selfie search
 * on for an event that already has photos: a page of the event's photos at a time, each processed
 * photo's faces (the boxes detect stored) described from its original and kept, until the slice's
 * time is up or the photos end, recording where it got to after every page. A run stops once the
 * search is switched off (whose faces it deletes again, in case a page raced the switch) or a newer
 * run has begun.
 */
export async function faceIndexingSlice(
  deps: Deps,
  { eventId, attempt }: EventJobInput,
  sliceMs: number,
): Promise<{ done: boolean }> {
  const endsAt = deps.clock.now().getTime() + sliceMs;
  const run = await deps.faceIndexing.get(eventId);
  if (!run || run.attempt !== attempt || run.finished) return { done: true };
  let { done, cursor } = run;
  do {
    if ((await deps.events.get(eventId))?.faceSearch !== true) {
      await deps.faceSearch.removeEvent(eventId);
      return { done: true };
    }
    const page = await deps.photos.listByEvent(eventId, {
      unbibbed: false,
      limit: indexingPageSize,
      cursor: cursor ?? undefined,
    });
    for (const photo of page.photos) {
      const faces = confidentFaces(photo.faces);
      if (photo.processingStatus !== "successful" || faces.length === 0) continue;
      const original = await deps.objects.getBuffer("originals", photo.originalKey);
      const image = sniffImageType(original) === "heic" ? await heicAsJpeg(original) : original;
      await deps.faceSearch.indexPhoto(
        eventId,
        photo.id,
        image,
        faces.map((face) => face.box),
      );
    }
    done += page.photos.length;
    cursor = page.cursor ?? null;
    const recorded = { done, cursor, finished: cursor === null, updatedAt: deps.clock.now().toISOString() };
    if (!(await deps.faceIndexing.progress(eventId, attempt, recorded))) {
      return { done: true };
    }
  } while (cursor && deps.clock.now().getTime() < endsAt);
  return { done: cursor === null };
}

/**
 * Starts again, where they got to, the indexing runs that stopped: those a killed process left
 * unfinished (the local runtime's start-up, `stalledMinutes` 0) and those whose workflow failed for
 * good in AWS (the hourly schedule: nothing recorded for `stalledMinutes`). Each gets a new attempt,
 * claimed conditionally, so two callers never start the same run twice. Events with the search
 * switched off are left alone: switching off deleted their faces. An event whose faces another
 * descriptor model described (an upgrade) has them all described again, from its first photo: a
 * selfie described by one model cannot be compared with faces described by another.
 */
export async function resumeFaceIndexing(deps: Deps, { stalledMinutes }: { stalledMinutes: number }) {
  const now = deps.clock.now().toISOString();
  const stalledBefore = new Date(deps.clock.now().getTime() - stalledMinutes * 60_000).toISOString();
  // Asked only once an event has the search on: the hourly recount otherwise never builds the engine.
  let model: Promise<string | undefined> | undefined;
  const resumed: number[] = [];
  for (const event of await deps.events.list()) {
    if (event.faceSearch !== true) continue;
    const run = await deps.faceIndexing.get(event.id);
    model ??= deps.faceSearch.descriptorModel();
    const current = await model;
    if (current !== undefined && run?.model !== current) {
      const photos = (await deps.events.stats([event.id])).get(event.id)?.totalPhotos ?? 0;
      const begun = await deps.faceIndexing.begin(event.id, photos, now, current);
      await deps.jobs.start("faceIndexing", { eventId: event.id, attempt: begun.attempt });
      resumed.push(event.id);
      continue;
    }
    if (!run || run.finished || (run.updatedAt ?? "") > stalledBefore) continue;
    const claimed = await deps.faceIndexing.retry(run, now);
    if (!claimed) continue;
    await deps.jobs.start("faceIndexing", { eventId: claimed.eventId, attempt: claimed.attempt });
    resumed.push(claimed.eventId);
  }
  return resumed;
}

/**
 * The detect step's part (issue 23), for an event with the search on (the step read the event
 * already; for any other event nothing is computed or stored): the faces detection found are kept
 * for search (described locally, indexed by Rekognition in AWS). An event switched off while the
 * photo was read loses what this wrote again at once.
 */
export async function keepFacesForSearch(
  deps: Deps,
  photo: { eventId: number; photoId: string },
  image: Buffer,
  faces: FaceDetection[],
): Promise<number> {
  const boxes = confidentFaces(faces).map((face) => face.box);
  const kept = await deps.faceSearch.indexPhoto(photo.eventId, photo.photoId, image, boxes);
  if ((await deps.events.get(photo.eventId))?.faceSearch !== true) await deps.faceSearch.removeEvent(photo.eventId);
  return kept;
}

/**
 * POST /api/photos/search-by-face: an athlete's photos of an event, found with a selfie.
 * 1. the consent box was ticked (400 otherwise) and the event has the search on (404 otherwise);
 * 2. the selfie is a JPEG, PNG or HEIC image of at most 15 MB;
 * 3. under the sign-in throttle (per address and event): its largest face is found — none, or two
 *    alike in size, is a 400 in Spanish — and searched among the event's faces;
 * 4. the photos found, best first (the certain ones, then the look-alikes), as the public search shows them.
 * The selfie lives only in this request's memory: nothing of it is written to storage or logs.
 */
export async function searchByFace(
  deps: Deps,
  form: MultipartForm | undefined,
  client: RequestClient,
): Promise<FaceSearchResponse> {
  const { event, selfie } = await selfieRequest(deps, form);
  let matches: FaceMatch[] = [];
  await throttledCheck(deps, `selfie#${event.id}`, addressClient(client), async () => {
    const face = await largestFace(deps, selfie);
    matches = await deps.faceSearch.search(event.id, selfie, face);
    // Look-alikes do not count as finding someone: probing with strangers' faces stays throttled.
    return matches.some((match) => match.certain);
  });
  const byPhoto = new Map(matches.map((match) => [match.photoId, match]));
  const scoreOf = (photo: { id: string }) => byPhoto.get(photo.id)?.score ?? 0;
  const photos = (await deps.photos.getViews(matches.map((match) => match.photoId)))
    .filter((photo) => photo.eventId === event.id && photo.processingStatus === "successful")
    // Scores are rounded to a tenth, so photos of one face tie often: a tie keeps the bib search's order.
    .sort((a, b) => scoreOf(b) - scoreOf(a) || inUploadOrder(a, b));
  const shown = await Promise.all(photos.map((photo) => toPublicPhotoDto(deps, photo, event)));
  return {
    photos: shown.map((photo) => ({
      id: photo.id,
      filename: photo.filename,
      thumbnailUrl: photo.thumbnailUrl,
      webUrl: photo.webUrl,
      score: scoreOf(photo),
      certain: byPhoto.get(photo.id)?.certain === true,
    })),
  };
}

/**
 * The athlete's deletion (issue 23 item 6): the event's photos their selfie finds leave the
 * event's face results, under the same consent, checks and throttle as the search.
 */
export async function forgetFace(
  deps: Deps,
  form: MultipartForm | undefined,
  client: RequestClient,
): Promise<FaceForgetResponse> {
  const { event, selfie } = await selfieRequest(deps, form);
  let removed: string[] = [];
  await throttledCheck(deps, `selfie#${event.id}`, addressClient(client), async () => {
    removed = await deps.faceSearch.forget(event.id, selfie, await largestFace(deps, selfie));
    return removed.length > 0;
  });
  deps.logger.info("selfie deletion", { eventId: event.id, removedPhotos: removed.length });
  return { removedPhotos: removed.length };
}

/** Consent, the event and the selfie's bytes, checked in that order; HEIC turned into a JPEG. */
async function selfieRequest(
  deps: Deps,
  form: MultipartForm | undefined,
): Promise<{ event: EventRecord; selfie: Buffer }> {
  const fields = faceSearchFields.safeParse(form?.fields ?? {});
  if (!fields.success) {
    const details = fields.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }));
    throw invalid(details[0]?.message ?? messages.invalidRequest, details);
  }
  if (fields.data.consent !== "true") {
    throw invalid(faceSearchMessages.consentRequired, [
      { path: "consent", message: faceSearchMessages.consentRequired },
    ]);
  }
  const event = await deps.events.get(fields.data.eventId);
  if (!event || event.unlisted) throw notFound(messages.eventNotFound);
  if (event.faceSearch !== true) throw notFound(faceSearchMessages.off);

  const file = form?.files.find((candidate) => candidate.field === "selfie");
  if (!file || file.data.length === 0) {
    throw invalid(faceSearchMessages.selfieRequired, [{ path: "selfie", message: faceSearchMessages.selfieRequired }]);
  }
  if (file.data.length > selfieMaxBytes) throw tooLarge(faceSearchMessages.selfieTooLarge);
  const type = sniffImageType(file.data);
  if (type !== "jpeg" && type !== "png" && type !== "heic") throw unsupported(faceSearchMessages.selfieType);
  return { event, selfie: type === "heic" ? await heicAsJpeg(file.data) : file.data };
}

async function heicAsJpeg(heic: Buffer): Promise<Buffer> {
  const raw = await decodeHeic(heic).catch(() => {
    throw invalid(faceSearchMessages.selfieUnreadable);
  });
  const { default: sharp } = await import("sharp");
  return sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: raw.channels } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The selfie's face to search: the largest, unless another as prominent makes it unclear whose. */
async function largestFace(deps: Deps, selfie: Buffer): Promise<BoundingBox> {
  const faces = await (await deps.vision()).faces.detectFaces(selfie).catch((error: unknown) => {
    if (error instanceof AppError) throw error;
    // What the decoder said stays out of the logs with the selfie: only that it failed.
    throw invalid(faceSearchMessages.selfieUnreadable);
  });
  const [largest, second] = confidentFaces(faces).sort((a, b) => b.box.height - a.box.height);
  if (!largest) throw invalid(faceSearchMessages.noFace);
  if (second && second.box.height >= largest.box.height * ambiguousFaceShare) {
    throw invalid(faceSearchMessages.severalFaces);
  }
  return largest.box;
}
