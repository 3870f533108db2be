import { createHash } from "node:crypto";
import { pipeline as streamPipeline } from "node:stream/promises";
import { type DetectedBib, limits, photoFailureReasons, tooManyPixelsReason } from "@dorsal/shared";
import { newPhotoFields, type PhotoRecord } from "../data/photos";
import { type PipelineTask, permanentErrorName, photoFailedLogMessage } from "../pipeline/definition";
import type { PipelineInput } from "../ports/pipeline";
import { confidentFaces, type TextDetection } from "../ports/vision";
import { machineBibsFrom, setPhotoBibs } from "./bib-index";
import { embeddedProfileIsSrgb } from "./color-profile";
import type { Deps } from "./deps";
import { PermanentError } from "./errors";
import { discardPhotoOfDeletedEvent } from "./event-deletion";
import { keepFacesForSearch } from "./face-search";
import { decodeHeic } from "./heic";
import { contentTypes, type ImageType, sniffImageType, sniffLength } from "./image-types";
import { settleUploadPhoto } from "./my-uploads";
import { reopenFailed } from "./processing";
import { parseOriginalKey, storagePaths } from "./storage-paths";
import { type WatermarkKind, watermarkSvg } from "./watermarks";
import { settleZipPhoto } from "./zip-batches";

// Types only: sharp itself is loaded by the variants step alone.
type SharpFactory = typeof import("sharp").default;
type Sharp = import("sharp").Sharp;

/** Decompression-bomb guard: a real camera tops out near 100 MP; anything larger is refused. */
const maxInputPixels = 120_000_000;
const webLongSide = 2048;
/**
 * The engine is asked for text down to this many points below the event's threshold, and the rest
 * is stored, so an organizer can lower the threshold later and re-index without re-reading photos.
 */
const reindexConfidenceMargin = 20;
const thumbnailLongSide = 400;
/** The public copies (watermarked preview, GRATIS/DEMO copy): large enough to judge a photo, too small to print. */
const previewLongSide = 1280;
/**
 * The working copy detect reads in the original's place: of a HEIC original (which the engines
 * cannot decode), and for Rekognition (under its 5 MB limit without detect re-encoding a 24 MP
 * photo on a small function). Ample for text and faces.
 */
const workingLongSide = 3000;
const inside = { fit: "inside", withoutEnlargement: true } as const;

export interface PreparedPhoto {
  photoId: string;
  eventId: number;
  originalKey: string;
  imageType: ImageType;
  /** A copy of a photo the event already has: the execution ends after Prepare (a Choice state). */
  duplicate: boolean;
  /**
   * Detect reads the working copy variants makes, so it runs after variants rather than beside
   * them (a Choice state): HEIC originals, and every photo read by Rekognition.
   */
  detectFromWorkingCopy: boolean;
}
export interface Variants {
  webKey: string;
  thumbnailKey: string;
  previewKey: string;
  previewThumbnailKey: string;
  gratisKey: string;
  /** In the derived bucket: a decodable stand-in for an original sharp cannot read (HEIC). */
  workingKey?: string;
  width: number;
  height: number;
  ms: number;
}
export interface Detection {
  bibs: DetectedBib[];
  textDetections: TextDetection[];
  faces: { confidence: number; box: { left: number; top: number; width: number; height: number } }[];
  engine: string;
  version: string;
  /**
   * Each engine's own time, and the step's from start to end (`elapsed`): the engines may work side
   * by side, so their sum can exceed it. Absent `elapsed` in what an older version recorded.
   */
  ms: { decode: number; text: number; faces: number; elapsed?: number };
}
export interface ExecutionState extends PipelineInput {
  photo: PreparedPhoto;
  variants: Variants;
  detection: Detection;
  error?: { Error: string; Cause: string };
}
/** Detect runs beside variants for most photos (no variants yet), after them for HEIC. */
type DetectInput = Pick<ExecutionState, "photo"> & { variants?: Variants };

/**
 * The steps of the photo pipeline, each idempotent: running one twice (a redelivered S3 event, a
 * retried task) leaves the same items and counts each photo once.
 */
export function createPipelineTasks(deps: Deps) {
  /**
   * An event deleted while its photos are in flight: the step stops without a retry and `fail`
   * removes what the execution wrote after the deletion's sweep. Checked where a step begins
   * (before reading objects that may be gone) and after it writes (so nothing it re-created stays).
   */
  const requireEvent = async (eventId: number) => {
    const event = await deps.events.get(eventId);
    if (!event) throw new PermanentError(eventGoneReason(eventId));
    return event;
  };
  /** A photo's new state reaches what follows it: its ZIP batch, or its upload's file. */
  const followState = async (photoOrId: PhotoRecord | string) => {
    const photo = typeof photoOrId === "string" ? await deps.photos.get(photoOrId) : photoOrId;
    if (!photo) return;
    await settleZipPhoto(deps, photo);
    await settleUploadPhoto(deps, photo);
  };
  return {
    /**
     * 1. map the object key to its event and photo; 2. refuse what is too big or not an image (by
     * magic bytes, never by name); 3. mark the photo processing and count it once for the event.
     */
    async prepare(input: PipelineInput): Promise<PreparedPhoto> {
      const ids = parseOriginalKey(input.key);
      if (!ids) throw new PermanentError(`Clave de objeto inesperada: ${input.key}`);
      await requireEvent(ids.eventId);
      const head = await deps.objects.head("originals", input.key);
      if (!head) throw new PermanentError("El archivo ya no existe en el almacenamiento");

      // Counted before it is judged, so a refused file adds to the total as well as to the failures.
      const now = deps.clock.now();
      await deps.photos.createPending({
        id: ids.photoId,
        eventId: ids.eventId,
        filename: input.key.split("/").pop() ?? ids.photoId,
        originalFilename: input.key.split("/").pop() ?? ids.photoId,
        originalKey: input.key,
        ...newPhotoFields,
        uploadedAt: now.toISOString(),
        uploadedBy: "storage",
      });
      let marked = await deps.photos.markProcessing(ids.photoId);
      // A failed photo whose original was stored again (fixed in storage) runs again, as a re-run would.
      if (!marked && (await reopenFailed(deps, ids.photoId))) marked = await deps.photos.markProcessing(ids.photoId);
      if (marked) {
        await deps.events.addStats(ids.eventId, { totalPhotos: 1 }, now);
        // The uploader's progress counts it as received from now on.
        await settleUploadPhoto(deps, await deps.photos.get(ids.photoId));
      }

      if (head.size > limits.photoMaxBytes) throw new PermanentError("La foto supera el máximo de 50 MB");
      const imageType = sniffImageType(await deps.objects.getRange("originals", input.key, 0, sniffLength - 1));
      if (!imageType) throw new PermanentError("El archivo no es una imagen reconocida");
      const duplicate = await settleDuplicate(deps, ids, input.key, now);
      // A duplicate's execution ends here: it has settled.
      if (duplicate) await followState(ids.photoId);
      await requireEvent(ids.eventId);
      return {
        photoId: ids.photoId,
        eventId: ids.eventId,
        originalKey: input.key,
        imageType,
        duplicate,
        detectFromWorkingCopy: imageType === "heic" || deps.config.VISION_ENGINE === "rekognition",
      };
    },

    /**
     * Web copy and thumbnail, EXIF-rotated, as JPEG, plus the public copies: a watermarked preview and
     * thumbnail (paid events) and a GRATIS/DEMO copy (free events). Both kinds are made for every photo,
     * so switching an event's free photos on or off needs no reprocessing. Same keys every time, so a
     * re-run overwrites.
     */
    async variants({ photo }: Pick<ExecutionState, "photo">): Promise<Variants> {
      const started = performance.now();
      // Loaded here, not at module scope: only this step needs libvips, so the other functions stay small.
      const { default: sharp } = await import("sharp");
      const original = await deps.objects.getBuffer("originals", photo.originalKey);
      // The bytes will not change on a retry: an image the decoders refuse fails at once, with our
      // reason, and what the library said (in English) goes to the logs. Our own refusals (a HEIC
      // over the pixel limit) stand as they are; the library's words are then their cause.
      const unreadable = (error: unknown): never => {
        const ours = error instanceof PermanentError;
        const said = ours ? error.cause : error;
        if (said !== undefined) {
          deps.logger.warn("image could not be decoded", { key: photo.originalKey, error: String(said) });
        }
        throw ours ? error : new PermanentError(photoFailureReasons.unreadable);
      };
      // HEIC: decoded once to upright raw pixels (libheif WASM), which every copy below is made from.
      const heic = photo.imageType === "heic" ? await decodeHeic(original).catch(unreadable) : undefined;
      // The header, read once: the upright size, and the colour profile the decode must honour.
      // The header alone, whatever size it declares (no pixel is decoded here): the limit is checked next, in our words.
      const header = heic ? undefined : await sharp(original, { limitInputPixels: false }).metadata().catch(unreadable);
      refuseOverPixelLimit(header);
      const image = heic
        ? sharp(heic.data, { raw: { width: heic.width, height: heic.height, channels: heic.channels } })
        : sharp(original, {
            limitInputPixels: maxInputPixels,
            failOn: "error",
            // An sRGB profile needs no conversion to sRGB, which would cost most of the decode.
            ignoreIcc: embeddedProfileIsSrgb(header?.icc),
          }).rotate();
      const { width = 0, height = 0 } = heic ?? header?.autoOrient ?? header ?? {};
      const webKey = storagePaths.web(photo.eventId, photo.photoId);
      const thumbnailKey = storagePaths.thumbnail(photo.eventId, photo.photoId);
      const previewKey = storagePaths.preview(photo.eventId, photo.photoId);
      const previewThumbnailKey = storagePaths.previewThumbnail(photo.eventId, photo.photoId);
      const gratisKey = storagePaths.gratis(photo.eventId, photo.photoId);
      const workingKey =
        heic || photo.detectFromWorkingCopy ? storagePaths.working(photo.eventId, photo.photoId) : undefined;
      // The original is decoded once, at the largest size a copy needs (JPEG shrink-on-load makes
      // that cheap for 12–24 MP): the working copy's, else the web copy's. Every smaller copy is
      // scaled from those pixels instead of decoding the original again.
      const rawOf = (input: Sharp) => input.raw().toBuffer({ resolveWithObject: true });
      const pixelsOf = (raw: Awaited<ReturnType<typeof rawOf>>) => () =>
        sharp(raw.data, { raw: { width: raw.info.width, height: raw.info.height, channels: raw.info.channels } });
      const workingPixels = workingKey
        ? // A header that reads but pixels that do not: a truncated or corrupt file.
          await rawOf(image.clone().resize(workingLongSide, workingLongSide, inside)).catch(unreadable)
        : undefined;
      const webPixels = await rawOf(
        (workingPixels ? pixelsOf(workingPixels)() : image.clone()).resize(webLongSide, webLongSide, inside),
      ).catch(unreadable);
      const fromWebPixels = pixelsOf(webPixels);
      const [web, thumbnail, marked, working] = await Promise.all([
        // Plain libjpeg, not mozjpeg: 8× faster for ~20% more bytes on a copy athletes never load.
        fromWebPixels().jpeg({ quality: 82 }).toBuffer(),
        fromWebPixels()
          .resize(thumbnailLongSide, thumbnailLongSide, { fit: "inside", withoutEnlargement: true })
          .jpeg({ quality: 75 })
          .toBuffer(),
        markedCopies(sharp, fromWebPixels()),
        workingPixels ? pixelsOf(workingPixels)().jpeg({ quality: 90 }).toBuffer() : undefined,
      ]);
      await Promise.all([
        deps.objects.put("derived", webKey, web, contentTypes.jpeg, web.length),
        deps.objects.put("derived", thumbnailKey, thumbnail, contentTypes.jpeg, thumbnail.length),
        deps.objects.put("derived", previewKey, marked.preview, contentTypes.jpeg, marked.preview.length),
        deps.objects.put(
          "derived",
          previewThumbnailKey,
          marked.previewThumbnail,
          contentTypes.jpeg,
          marked.previewThumbnail.length,
        ),
        deps.objects.put("derived", gratisKey, marked.gratis, contentTypes.jpeg, marked.gratis.length),
        workingKey && working
          ? deps.objects.put("derived", workingKey, working, contentTypes.jpeg, working.length)
          : undefined,
      ]);
      // The heaviest step's memory: the dashboard's trend (on AWS, this function's; locally the runtime's).
      const { rss, heapUsed } = process.memoryUsage();
      deps.metrics.put("RssBytes", rss);
      deps.metrics.put("HeapUsedBytes", heapUsed);
      return {
        webKey,
        thumbnailKey,
        previewKey,
        previewThumbnailKey,
        gratisKey,
        ...(workingKey ? { workingKey } : {}),
        width,
        height,
        ms: Math.round(performance.now() - started),
      };
    },

    /**
     * Text and faces from the original, decoded once for both (the engines downsize as they need) —
     * or, for an original the engines cannot decode (HEIC), from the working copy variants made —
     * read into bibs under the event's configuration. The raw text is kept for re-indexing; the faces,
     * for selfie search, when the event has it on.
     */
    async detect({ photo, variants }: DetectInput): Promise<Detection> {
      const started = performance.now();
      // Variants cannot tell (it has no table access on AWS); record checks again after both.
      const event = await requireEvent(photo.eventId);
      const [vision, config] = await Promise.all([deps.vision(), deps.eventConfigs.get(photo.eventId)]);
      // Beside variants (a JPEG, PNG…) there are no variants yet; after them (HEIC) there is the working copy.
      const original = variants?.workingKey
        ? await deps.objects.getBuffer("derived", variants.workingKey)
        : await deps.objects.getBuffer("originals", photo.originalKey);
      // Beside variants, detect meets a bomb first-hand: refused from its header before an engine decodes it.
      if (!variants?.workingKey) refuseOverPixelLimit(await imageHeader(original));
      const reading = await vision
        .readPhoto(original, { minConfidence: Math.max(0, config.ocrConfidenceThreshold - reindexConfidenceMargin) })
        .catch(async (error: unknown) => {
          // Beside variants, a broken photo reaches the engines too: no retry can fix it.
          if (!(await decodes(original))) throw new PermanentError(photoFailureReasons.unreadable, { cause: error });
          throw error;
        });
      // Only for an event whose organizer switched selfie search on; nothing otherwise (issue 23).
      if (event.faceSearch === true) await keepFacesForSearch(deps, photo, original, reading.faces);
      return {
        bibs: machineBibsFrom(reading.text, reading.faces, config),
        textDetections: reading.text,
        faces: reading.faces,
        engine: vision.text.info.engine,
        version: vision.text.info.version,
        // Decoding serves both engines, so it is its own figure.
        ms: {
          decode: Math.round(reading.ms.decode),
          text: Math.round(reading.ms.text),
          faces: Math.round(reading.ms.faces),
          elapsed: Math.round(performance.now() - started),
        },
      };
    },

    /**
     * 1. set the photo's machine bibs — manual corrections still win — and link it under each;
     * 2. mark it successful with its variants, text and faces (counted only the first time), so
     *    nobody ever sees it finished without its bibs;
     * 3. list it under "Sin dorsal" if it has none, which needs it successful;
     * 4. add the photo to the event's processing stats the first time only.
     */
    async record({ photo, variants, detection }: Pick<ExecutionState, "photo" | "variants" | "detection">) {
      const started = performance.now();
      await requireEvent(photo.eventId);
      const now = deps.clock.now();
      await setPhotoBibs(deps, photo.photoId, () => ({ machineBibs: detection.bibs }));
      const first = await deps.photos.markSuccessful(
        photo.photoId,
        {
          webKey: variants.webKey,
          thumbnailKey: variants.thumbnailKey,
          previewKey: variants.previewKey,
          previewThumbnailKey: variants.previewThumbnailKey,
          gratisKey: variants.gratisKey,
          textDetections: detection.textDetections,
          imageSize: { width: variants.width, height: variants.height },
          faces: detection.faces,
          recognition: {
            engine: detection.engine,
            version: detection.version,
            ms: { variants: variants.ms, ...detection.ms },
          },
        },
        now,
      );
      const { photo: stored } = await setPhotoBibs(deps, photo.photoId, () => ({}));
      if (first) {
        await deps.events.addStats(
          photo.eventId,
          {
            processedPhotos: 1,
            facesDetected: confidentFaces(detection.faces).length,
            processingMsTotal: variants.ms + detection.ms.decode + detection.ms.text + detection.ms.faces,
          },
          now,
        );
        await deps.events.countProcessed(photo.eventId, now);
        const stages = {
          variants: variants.ms,
          detect: detectionMs(detection.ms),
          record: Math.round(performance.now() - started),
          // From arriving in storage (prepare registers it then) until searchable: now.
          searchable: Math.max(0, now.getTime() - Date.parse(stored.uploadedAt)),
        };
        for (const [stage, ms] of Object.entries(stages)) {
          deps.metrics.put("StageMs", ms, { stage: stage as keyof typeof stages, at: now });
        }
      }
      // Last: a batch this photo completes is then complete in the event's numbers too.
      await followState(stored);
      // The working copy served detect only: storage keeps the original and the public copies.
      if (variants.workingKey) await deps.objects.delete("derived", variants.workingKey);
      await requireEvent(photo.eventId);
      return { photoId: photo.photoId, bibs: stored.detectedDorsals, firstTime: first };
    },

    /** Any step's final failure lands on the photo with its reason; counted once per photo. */
    async fail(input: Pick<ExecutionState, "key" | "error">) {
      const ids = parseOriginalKey(input.key);
      const reason = failureReason(input.error);
      deps.logger.warn(photoFailedLogMessage, { key: input.key, error: input.error, reason });
      if (!ids) return { failed: false, reason };
      // Not a failure of the photo: its event was deleted. It ends quietly, leaving nothing behind.
      if (!(await deps.events.get(ids.eventId))) {
        await discardPhotoOfDeletedEvent(deps, { ...ids, originalKey: input.key });
        return { failed: false, reason: eventGoneReason(ids.eventId) };
      }
      const counted = await deps.photos.markFailed(ids.photoId, reason.slice(0, 500), deps.clock.now(), ids.eventId);
      if (counted) await deps.events.addStats(ids.eventId, { failedPhotos: 1 }, deps.clock.now());
      await followState(ids.photoId);
      return { failed: counted, reason };
    },
  } satisfies Record<PipelineTask, (input: ExecutionState) => Promise<unknown>>;
}
export type PipelineTasks = ReturnType<typeof createPipelineTasks>;

/**
 * Duplicates by content: hashes the original as a stream (never whole in memory) and claims the
 * event's hash guard. Another photo holding it makes this one a `duplicate` (counted once), unless
 * the upload asked to keep copies. A re-run finds its own claim and goes on as before.
 */
async function settleDuplicate(
  deps: Deps,
  ids: { eventId: number; photoId: string },
  key: string,
  now: Date,
): Promise<boolean> {
  const hash = createHash("sha256");
  await streamPipeline(await deps.objects.getStream("originals", key), hash);
  const sha256 = hash.digest("hex");
  const holder = await deps.photos.claimContentHash(ids.eventId, sha256, ids.photoId, now);
  if (holder === ids.photoId) return false;
  const photo = await deps.photos.get(ids.photoId);
  if (photo?.forceDuplicates) return false;
  if (await deps.photos.markDuplicate(ids.photoId, holder, sha256, now)) {
    await deps.events.addStats(ids.eventId, { duplicatePhotos: 1 }, now);
    return true;
  }
  // Already a duplicate (a redelivery) or already finished some other way: only the former stops here.
  return (await deps.photos.get(ids.photoId))?.processingStatus !== "successful";
}

/**
 * Rasterising a mark's SVG costs ~¼ s at preview size — more than the rest of the copies together —
 * and an event's photos come in a few sizes (one camera, two orientations). So each rendered mark
 * (RGBA) is kept for its kind and size: a few, at ~5 MB each at preview size.
 */
const renderedMarks = new Map<string, Promise<Buffer>>();
const renderedMarksKept = 6;

function renderedMark(sharp: SharpFactory, kind: WatermarkKind, width: number, height: number): Promise<Buffer> {
  const key = `${kind} ${width}x${height}`;
  const known = renderedMarks.get(key);
  if (known) {
    // Most recently used last, so the first key is the one to let go.
    renderedMarks.delete(key);
    renderedMarks.set(key, known);
    return known;
  }
  const rendered = sharp(Buffer.from(watermarkSvg(kind, width, height)))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
    .then(({ data, info }) => {
      if (info.width !== width || info.height !== height || info.channels !== 4) {
        throw new Error(
          `the ${kind} mark rendered at ${info.width}x${info.height}x${info.channels}, not ${width}x${height}x4`,
        );
      }
      return data;
    });
  renderedMarks.set(key, rendered);
  rendered.catch(() => renderedMarks.delete(key));
  while (renderedMarks.size > renderedMarksKept) {
    const oldest = renderedMarks.keys().next().value;
    if (oldest === undefined) break;
    renderedMarks.delete(oldest);
  }
  return rendered;
}

/**
 * The marked public copies from the web-size pixels: resized once to the preview size (small, held
 * raw), then each mark composited over an exact-size SVG; the watermarked thumbnail is scaled from
 * that same preview-size pixels.
 */
async function markedCopies(
  sharp: SharpFactory,
  image: Sharp,
): Promise<{ preview: Buffer; previewThumbnail: Buffer; gratis: Buffer }> {
  const base = await image
    .resize(previewLongSide, previewLongSide, { fit: "inside", withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { width: base.info.width, height: base.info.height, channels: base.info.channels };
  const mark = async (pixels: Buffer, size: typeof raw, kind: WatermarkKind, quality: number) =>
    sharp(pixels, { raw: size })
      .composite([{ input: await renderedMark(sharp, kind, size.width, size.height), raw: { ...size, channels: 4 } }])
      // libjpeg with optimised Huffman tables, not mozjpeg: ~9× faster for ~24% more bytes (a
      // 1280-px preview of ~160 KB instead of ~130 KB), which race-day throughput needs more.
      .jpeg({ quality, optimiseCoding: true })
      .toBuffer();
  const small = await sharp(base.data, { raw })
    .resize(thumbnailLongSide, thumbnailLongSide, { fit: "inside", withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const smallRaw = { width: small.info.width, height: small.info.height, channels: small.info.channels };
  const [preview, gratis, previewThumbnail] = await Promise.all([
    mark(base.data, raw, "watermarked", 78),
    mark(base.data, raw, "gratis", 80),
    mark(small.data, smallRaw, "watermarked", 75),
  ]);
  return { preview, previewThumbnail, gratis };
}

const eventGoneReason = (eventId: number) => `El evento ${eventId} no existe`;

/**
 * What the admin reads on the 'Errores' screen: our own reasons (PermanentError) as they are;
 * anything else (a library's or the platform's words, in English) as a Spanish reason.
 */
function failureReason(error: ExecutionState["error"]): string {
  if (!error) return photoFailureReasons.unknown;
  const message = errorMessage(error);
  if (error.Error === permanentErrorName) return message;
  if (/^(States\.Timeout|Sandbox\.Timedout)$/.test(error.Error) || /timed out/i.test(message)) {
    return photoFailureReasons.timedOut;
  }
  if (imageLibraryError.test(message)) return photoFailureReasons.unreadable;
  return photoFailureReasons.unexpected;
}

/** How sharp/libvips, libheif and Rekognition word an image they cannot read. */
const imageLibraryError = /vips|jpeg|png|webp|tiff|gif|heif|heic|image|corrupt|premature|truncated|unsupported/i;

/** Step Functions wraps a Lambda error's message in a JSON `Cause`; the local runner passes it plain. */
function errorMessage(error: NonNullable<ExecutionState["error"]>): string {
  try {
    const parsed = JSON.parse(error.Cause) as { errorMessage?: unknown };
    if (typeof parsed.errorMessage === "string") return parsed.errorMessage;
  } catch {
    // Not JSON: the cause is the message itself.
  }
  return error.Cause || error.Error;
}

/** How long a photo's reading took: the step's own time, or (recorded before it was) its engines' sum. */
export const detectionMs = (ms: Partial<Detection["ms"]>) =>
  ms.elapsed ?? (ms.decode ?? 0) + (ms.text ?? 0) + (ms.faces ?? 0);

/**
 * A photo whose header declares more than `maxInputPixels` is refused from the header alone: a
 * decoder would allocate what it declares, and a PNG of 400 megapixels fits in a few kilobytes.
 */
function refuseOverPixelLimit(header: { width?: number | undefined; height?: number | undefined } | undefined): void {
  const { width = 0, height = 0 } = header ?? {};
  if (width * height > maxInputPixels) {
    throw new PermanentError(tooManyPixelsReason(width, height, maxInputPixels / 1_000_000));
  }
}

/** The image's header, or nothing where there is none to read (the engines then say why). */
async function imageHeader(bytes: Buffer) {
  const { default: sharp } = await import("sharp");
  return sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch(() => undefined);
}

/** Whether the bytes decode at all, as variants decodes them: a broken photo, or an engine's hiccup? */
async function decodes(bytes: Buffer): Promise<boolean> {
  const { default: sharp } = await import("sharp");
  return sharp(bytes, { limitInputPixels: maxInputPixels, failOn: "error" })
    .resize(64, 64, { fit: "inside" })
    .raw()
    .toBuffer()
    .then(
      () => true,
      () => false,
    );
}
