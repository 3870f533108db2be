import { type DetectedBib, limits } from "@dorsal/shared";
import { newPhotoFields } from "../data/photos";
import type { PipelineTask } from "../pipeline/definition";
import type { PipelineInput } from "../ports/pipeline";
import type { TextDetection } from "../ports/vision";
import { machineBibsFrom, setPhotoBibs } from "./bib-index";
import type { Deps } from "./deps";
import { PermanentError } from "./errors";
import { contentTypes, type ImageType, sniffImageType, sniffLength } from "./image-types";
import { parseOriginalKey, storagePaths } from "./storage-paths";

/** Decompression-bomb guard: a real camera tops out near 100 MP; anything larger is refused. */
const maxInputPixels = 120_000_000;
const webLongSide = 2048;
/**
 * The engine is asked for text down to this many points below the event's threshold, and the rest
 * is stored, so an organizer can lower the threshold later and re-index without re-reading photos.
 */
const reindexConfidenceMargin = 20;
const thumbnailLongSide = 400;

interface PreparedPhoto {
  photoId: string;
  eventId: number;
  originalKey: string;
  imageType: ImageType;
}
interface Variants {
  webKey: string;
  thumbnailKey: string;
  width: number;
  height: number;
  ms: number;
}
interface Detection {
  bibs: DetectedBib[];
  textDetections: TextDetection[];
  faces: { confidence: number; box: { left: number; top: number; width: number; height: number } }[];
  engine: string;
  version: string;
  ms: { text: number; faces: number };
}
interface ExecutionState extends PipelineInput {
  photo: PreparedPhoto;
  variants: Variants;
  detection: Detection;
  error?: { Error: string; Cause: string };
}

/**
 * The steps of the photo pipeline, each idempotent: running one twice (a redelivered S3 event, a
 * retried task) leaves the same items and counts each photo once.
 */
export function createPipelineTasks(deps: Deps): Record<PipelineTask, (input: ExecutionState) => Promise<unknown>> {
  return {
    /**
     * 1. map the object key to its event and photo; 2. refuse what is too big or not an image (by
     * magic bytes, never by name); 3. mark the photo processing and count it once for the event.
     */
    async prepare(input): Promise<PreparedPhoto> {
      const ids = parseOriginalKey(input.key);
      if (!ids) throw new PermanentError(`Clave de objeto inesperada: ${input.key}`);
      const event = await deps.events.get(ids.eventId);
      if (!event) throw new PermanentError(`El evento ${ids.eventId} no existe`);
      const head = await deps.objects.head("originals", input.key);
      if (!head) throw new PermanentError("El archivo ya no existe en el almacenamiento");
      if (head.size > limits.photoMaxBytes) throw new PermanentError("La foto supera el máximo de 50 MB");
      const imageType = sniffImageType(await deps.objects.getRange("originals", input.key, 0, sniffLength - 1));
      if (!imageType) throw new PermanentError("El archivo no es una imagen reconocida");

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
      if (await deps.photos.markProcessing(ids.photoId))
        await deps.events.addStats(ids.eventId, { totalPhotos: 1 }, now);
      return { photoId: ids.photoId, eventId: ids.eventId, originalKey: input.key, imageType };
    },

    /** Web copy and thumbnail, EXIF-rotated, as JPEG; same keys every time, so a re-run overwrites. */
    async variants({ photo }): Promise<Variants> {
      const started = performance.now();
      // Loaded here, not at module scope: only this step needs libvips, so the other functions stay small.
      const { default: sharp } = await import("sharp");
      const original = await deps.objects.getBuffer("originals", photo.originalKey);
      const image = sharp(original, { limitInputPixels: maxInputPixels, failOn: "error" }).rotate();
      const { width = 0, height = 0 } = await image
        .clone()
        .metadata()
        .then((m) => (m.autoOrient ? { width: m.autoOrient.width, height: m.autoOrient.height } : m))
        .catch((error: Error) => {
          throw new PermanentError(`No se pudo leer la imagen: ${error.message}`);
        });
      const webKey = storagePaths.web(photo.eventId, photo.photoId);
      const thumbnailKey = storagePaths.thumbnail(photo.eventId, photo.photoId);
      const [web, thumbnail] = await Promise.all([
        image
          .clone()
          .resize(webLongSide, webLongSide, { fit: "inside", withoutEnlargement: true })
          .jpeg({ quality: 82, mozjpeg: true })
          .toBuffer(),
        image
          .clone()
          .resize(thumbnailLongSide, thumbnailLongSide, { fit: "inside", withoutEnlargement: true })
          .jpeg({ quality: 75 })
          .toBuffer(),
      ]);
      await Promise.all([
        deps.objects.put("derived", webKey, web, contentTypes.jpeg, web.length),
        deps.objects.put("derived", thumbnailKey, thumbnail, contentTypes.jpeg, thumbnail.length),
      ]);
      return { webKey, thumbnailKey, width, height, ms: Math.round(performance.now() - started) };
    },

    /**
     * Text from the original (the engine downsizes as it needs), read into bibs under the event's
     * configuration; faces from the web copy. The raw text is kept for re-indexing.
     */
    async detect({ photo, variants }): Promise<Detection> {
      const [vision, config] = await Promise.all([deps.vision(), deps.eventConfigs.get(photo.eventId)]);
      const textStarted = performance.now();
      const original = await deps.objects.getBuffer("originals", photo.originalKey);
      const textDetections = await vision.text.detectText(original, {
        minConfidence: Math.max(0, config.ocrConfidenceThreshold - reindexConfidenceMargin),
      });
      const textMs = performance.now() - textStarted;
      const facesStarted = performance.now();
      const faces = await vision.faces.detectFaces(await deps.objects.getBuffer("derived", variants.webKey));
      const bibs = machineBibsFrom(textDetections, faces, config);
      return {
        bibs,
        textDetections,
        faces,
        engine: vision.text.info.engine,
        version: vision.text.info.version,
        ms: { text: Math.round(textMs), faces: Math.round(performance.now() - facesStarted) },
      };
    },

    /**
     * 1. mark the photo successful with its variants, text and faces (counted only the first time);
     * 2. set its machine bibs — manual corrections still win — and link it under each;
     * 3. add the photo to the event's processing stats the first time only.
     */
    async record({ photo, variants, detection }) {
      const now = deps.clock.now();
      const first = await deps.photos.markSuccessful(
        photo.photoId,
        {
          webKey: variants.webKey,
          thumbnailKey: variants.thumbnailKey,
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
      const { photo: stored } = await setPhotoBibs(deps, photo.photoId, () => ({ machineBibs: detection.bibs }));
      if (first) {
        await deps.events.addStats(
          photo.eventId,
          {
            processedPhotos: 1,
            facesDetected: detection.faces.length,
            processingMsTotal: variants.ms + detection.ms.text + detection.ms.faces,
          },
          now,
        );
      }
      return { photoId: photo.photoId, bibs: stored.detectedDorsals, firstTime: first };
    },

    /** Any step's final failure lands on the photo with its reason; counted once per photo. */
    async fail(input) {
      const ids = parseOriginalKey(input.key);
      const reason = failureReason(input.error);
      if (!ids) return { failed: false, reason };
      const counted = await deps.photos.markFailed(ids.photoId, reason.slice(0, 500), deps.clock.now());
      if (counted) await deps.events.addStats(ids.eventId, { failedPhotos: 1 }, deps.clock.now());
      return { failed: counted, reason };
    },
  };
}
export type PipelineTasks = ReturnType<typeof createPipelineTasks>;

/** Step Functions wraps a Lambda error's message in a JSON `Cause`; the local runner passes it plain. */
function failureReason(error: ExecutionState["error"]): string {
  if (!error) return "Error desconocido";
  try {
    const parsed = JSON.parse(error.Cause) as { errorMessage?: unknown };
    if (typeof parsed.errorMessage === "string") return parsed.errorMessage;
  } catch {
    // Not JSON: the cause is the message itself.
  }
  return error.Cause || error.Error;
}
