import { InferenceSession, Tensor } from "onnxruntime-node";
import sharp from "sharp";
import type { BoundingBox, TextDetection } from "../../../ports/vision";
import { type PhotoInput, type RawPixels, TEXT_SOURCE_LONG_SIDE, uprightPixels } from "../pixels";
import { confirmedBy, ctcGreedyDecode, type DecodedText, parseDictionary } from "./ctc";
import { boxesFromProbabilityMap, mapQuad, type Point, type Quad } from "./db-postprocess";
import { type RecognisedRegion, subQuad, toTextDetections } from "./detections";
import { area, contains, holdsCentre, mergeScaled, quadBounds, type Rect, tilesOf, touchesInnerEdge } from "./rects";

/**
 * The coarse pass scales every photo (up or down) to this long side: RBNR's 720-px photos unscaled
 * lose a quarter of their bibs, and at 1024 px rbnr-dev's recall fell from 0.938 to 0.859. Small
 * bibs on big photos are the closer look's job (docs/recognition.md).
 */
const DETECTOR_LONG_SIDE = 1280;
/** A runner's region wider than this many coarse-pass pixels holds text big enough for that pass. */
const MAX_ZOOMED_REGION_WIDTH = 320;
/**
 * A nearer runner's region is detected at the scale that makes it this many pixels wide, so every
 * runner's bib reaches the detector about as large as a near runner's: a region just too small for
 * the coarse pass is seen at twice that pass's scale, a distant runner's at more.
 */
const ZOOMED_REGION_WIDTH = 2 * MAX_ZOOMED_REGION_WIDTH;
/**
 * The closer look enlarges the decoded pixels at most this much: as with RBNR's small photos in the
 * coarse pass, enlarged text is found where it is too small at its own size; beyond that, nothing gains.
 */
const MAX_UPSCALE = 2;
/**
 * A photo's closer look detects at most this many times the coarse pass's pixels. Photos with a few
 * distant runners stay under it; a start crowd would otherwise cost up to 6 coarse passes.
 */
const MAX_CLOSER_LOOK_COST = 2;
/** A closer look's window is detected in tiles of at most this many pixels a side, bounding memory. */
const MAX_TILE_SIDE = DETECTOR_LONG_SIDE;
/** Neighbouring tiles overlap by this many detector pixels: more than a zoomed bib is wide. */
const TILE_OVERLAP = ZOOMED_REGION_WIDTH / 2;
const REC_HEIGHT = 48;
/** PaddleOCR pads every recognition input to at least 320 px wide; the model was trained so. */
const REC_MIN_WIDTH = 320;
/** PaddleOCR's drop_score: below it a read is mostly noise. */
const MIN_TEXT_SCORE = 0.5;
/** Crops a region more than this much taller than wide are read as vertical text (PaddleOCR's rule). */
const VERTICAL_RATIO = 1.5;
/** Supersampling per axis when shrinking a crop: enough to avoid aliasing on big text, cheap. */
const MAX_SUPERSAMPLE = 4;
/**
 * A number's region is read again widened by this many of its character widths on each side: the
 * detector's box often stops short of a digit at a bib's edge or half behind an arm ("1527" of "61527").
 */
const REREAD_PAD_CHARS = 0.5;
/** The wider read replaces the first only when every digit it adds is at least this probable. */
const REREAD_MIN_CHAR_PROB = 0.8;
/** Numbers longer than this are not bibs, so they are not read again. */
const REREAD_MAX_DIGITS = 6;

// PaddleOCR feeds OpenCV's BGR images normalised with ImageNet statistics listed in that order.
const DET_MEAN = [0.485, 0.456, 0.406] as const;
const DET_STD = [0.229, 0.224, 0.225] as const;

export interface PaddleOcr {
  /** `closerLook`: regions (normalised) where small text is worth a closer detection (runners). */
  detectText(image: PhotoInput, closerLook: readonly BoundingBox[]): Promise<TextDetection[]>;
  /**
   * detectText in three steps, so a photo's work can spread over workers: the whole photo's text
   * regions at the coarse scale (while faces are found), the closer look where runners are, then
   * the reading, which splits into any groups of regions. `pixels` come from
   * `uprightPixels(…, TEXT_SOURCE_LONG_SIDE)` and are the same for every step.
   */
  findCoarse(pixels: RawPixels): Promise<Quad[]>;
  /** Every region to read: the coarse ones, and the closer look's instead of those it covers. */
  findFine(pixels: RawPixels, coarse: readonly Quad[], closerLook: readonly BoundingBox[]): Promise<Quad[]>;
  /** Each region's reading, or null where nothing was read well enough; toTextDetections shapes them. */
  readRegions(pixels: RawPixels, quads: readonly Quad[]): Promise<(RecognisedRegion | null)[]>;
}

export interface OcrModels {
  /** Both graphs as onnxruntime loads them: folded (prepared-models.ts). */
  detector: Uint8Array;
  recogniser: Uint8Array;
  /** The recogniser's character list, one per line. */
  dictionary: string;
}

export async function loadPaddleOcr(models: OcrModels): Promise<PaddleOcr> {
  // More than one intra-op thread was slower and erratic on 2 cores; parallelism comes from workers.
  const sessionOptions: InferenceSession.SessionOptions = {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: "sequential",
    graphOptimizationLevel: "all",
    // Input shapes change with every photo, so a planned memory pattern only holds on to buffers (~200 MB).
    enableMemPattern: false,
  };
  const [detector, recogniser] = await Promise.all([
    InferenceSession.create(models.detector, sessionOptions),
    InferenceSession.create(models.recogniser, sessionOptions),
  ]);
  const alphabet = parseDictionary(models.dictionary);

  /**
   * Text regions of `window` (crop-source pixels; the whole image by default) detected at `scale`
   * crop-source pixels per input pixel, as quads in crop-source pixels, with the probability map.
   */
  async function detectQuads(image: RawPixels, scale: number, window?: Rect) {
    const area = window ?? { left: 0, top: 0, right: image.width, bottom: image.height };
    // Whole pixels inside the image, whatever rounding the window's corners went through.
    const left = Math.min(image.width - 1, Math.max(0, Math.floor(area.left)));
    const top = Math.min(image.height - 1, Math.max(0, Math.floor(area.top)));
    const areaWidth = Math.max(1, Math.min(image.width, Math.ceil(area.right)) - left);
    const areaHeight = Math.max(1, Math.min(image.height, Math.ceil(area.bottom)) - top);
    // The detector downsamples by 32.
    const width = Math.max(32, Math.round((areaWidth * scale) / 32) * 32);
    const height = Math.max(32, Math.round((areaHeight * scale) / 32) * 32);
    const resized = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
      .extract({ left, top, width: areaWidth, height: areaHeight })
      .resize(width, height, { fit: "fill" })
      .raw()
      .toBuffer();
    const input = new Float32Array(3 * width * height);
    const plane = width * height;
    for (let i = 0; i < plane; i++) {
      for (let c = 0; c < 3; c++) {
        const rgb = resized[i * 3 + 2 - c] as number;
        input[c * plane + i] = (rgb / 255 - (DET_MEAN[c] as number)) / (DET_STD[c] as number);
      }
    }
    const output = await detector.run({
      [detector.inputNames[0] as string]: new Tensor("float32", input, [1, 3, height, width]),
    });
    const probabilities = (output[detector.outputNames[0] as string] as Tensor).data as Float32Array;
    const sx = areaWidth / width;
    const sy = areaHeight / height;
    // Map points are pixel centres; quads are in continuous pixel coordinates of the crop source.
    const toImage = (p: Point): Point => ({
      x: Math.min(image.width, Math.max(0, left + (p.x + 0.5) * sx)),
      y: Math.min(image.height, Math.max(0, top + (p.y + 0.5) * sy)),
    });
    const quads = boxesFromProbabilityMap(probabilities, width, height)
      .map(({ quad }) => mapQuad(quad, toImage))
      .filter((quad) => {
        // PaddleOCR's filter_tag_det_res, in crop-source pixels.
        const sides = sideLengths(quad);
        return sides.width > 3 && sides.height > 3;
      });
    const mapToImage = (rect: Rect): Rect => {
      const a = toImage({ x: rect.left - 0.5, y: rect.top - 0.5 });
      const b = toImage({ x: rect.right - 0.5, y: rect.bottom - 0.5 });
      return { left: a.x, top: a.y, right: b.x, bottom: b.y };
    };
    return { quads, probabilities, width, height, mapToImage };
  }

  /**
   * Two stages: the whole photo at DETECTOR_LONG_SIDE, then the regions where runners are whose text
   * would be small at that scale, each at the scale its size needs (ZOOMED_REGION_WIDTH), so distant
   * bibs are found without paying a full-resolution detection of the whole frame.
   */
  const coarseScaleOf = (image: RawPixels) => DETECTOR_LONG_SIDE / Math.max(image.width, image.height);

  async function findCoarse(image: RawPixels): Promise<Quad[]> {
    return (await detectQuads(image, coarseScaleOf(image))).quads;
  }

  async function findFine(image: RawPixels, coarse: readonly Quad[], closerLook: readonly BoundingBox[]) {
    const coarseScale = coarseScaleOf(image);
    // A photo the coarse pass sees at full resolution or more is not a race-day original: enlarging
    // runners past that (rbnr-dev's 850-px photos) read four more background prints or cut bibs, no bib.
    if (coarseScale >= 1) return [...coarse];
    // A look less than 1.2× closer than the coarse pass finds nothing that pass did not.
    const worthACloserLook = (scale: number) => scale > coarseScale * 1.2;
    const windows = mergeScaled(
      closerLook.flatMap((region) => {
        const width = region.width * image.width;
        if (width * coarseScale >= MAX_ZOOMED_REGION_WIDTH) return [];
        const scale = Math.min(MAX_UPSCALE, ZOOMED_REGION_WIDTH / Math.max(1, width));
        if (!worthACloserLook(scale)) return [];
        const rect = {
          left: region.left * image.width,
          top: region.top * image.height,
          right: (region.left + region.width) * image.width,
          bottom: (region.top + region.height) * image.height,
        };
        return [{ rect, scale }];
      }),
    );
    const coarsePixels = image.width * image.height * coarseScale * coarseScale;
    const wanted = windows.reduce((sum, { rect, scale }) => sum + area(rect) * scale ** 2, 0);
    // A crowd's closer look is seen less close rather than at many times the coarse pass's cost.
    const shrink = Math.min(1, Math.sqrt((MAX_CLOSER_LOOK_COST * coarsePixels) / Math.max(1, wanted)));
    const closer = windows
      .map(({ rect, scale }) => ({ rect, scale: scale * shrink }))
      .filter(({ scale }) => worthACloserLook(scale));
    const kept = coarse.filter((quad) => !closer.some(({ rect }) => contains(rect, quadBounds(quad))));
    for (const window of closer) {
      for (const tile of tilesOf(window.rect, window.scale, MAX_TILE_SIDE, TILE_OVERLAP)) {
        const fine = await detectQuads(image, window.scale, tile.rect);
        for (const quad of fine.quads) {
          const bounds = quadBounds(quad);
          // Text cut by the window's edge is the coarse pass's to read, whole; text in two tiles is
          // kept by the tile whose share of the overlap holds its centre.
          if (touchesInnerEdge(bounds, tile.rect, image.width, image.height)) continue;
          if (!holdsCentre(tile.owned, bounds)) continue;
          kept.push(quad);
        }
      }
    }
    return kept;
  }

  async function recognise(image: RawPixels, quad: Quad): Promise<RecognisedRegion | undefined> {
    const crop = readingQuad(quad);
    const decoded = await read(image, crop.quad);
    if (mean(decoded.confidences) < MIN_TEXT_SCORE) return undefined;
    const second = await reread(image, crop.quad, decoded);
    const reading = second?.quad ?? crop.quad;
    // Back from reading order to the photo's corners (vertical text was turned counter-clockwise).
    const corners: Quad = crop.vertical ? [reading[3], reading[0], reading[1], reading[2]] : reading;
    return {
      chars: (second ?? decoded).chars,
      confidences: (second ?? decoded).confidences,
      quad: mapQuad(corners, (p) => ({ x: p.x / image.width, y: p.y / image.height })),
    };
  }

  /**
   * A region read as a short number is read again widened sideways. When the wider read is the same
   * digits with digits added at either end, each confidently read, it wins, with the region grown over
   * the added digits. When it is the same digits, it confirms them (`confirmedBy`; a bib's cut first
   * digit reads the same cut twice, so a partial read is confirmed too). Else undefined.
   */
  async function reread(
    image: RawPixels,
    reading: Quad,
    decoded: DecodedText,
  ): Promise<(DecodedText & { quad: Quad }) | undefined> {
    const text = decoded.chars.join("");
    if (REREAD_PAD_CHARS <= 0 || !/^\d+$/.test(text) || text.length >= REREAD_MAX_DIGITS) return undefined;
    const pad = REREAD_PAD_CHARS / text.length;
    const again = await read(image, subQuad(reading, -pad, 1 + pad));
    const wider = again.chars.join("");
    if (wider === text) return { ...confirmedBy(decoded, again), quad: reading };
    const at = wider.indexOf(text);
    if (at < 0 || !/^\d+$/.test(wider) || wider.length <= text.length || wider.length > REREAD_MAX_DIGITS) {
      return undefined;
    }
    const added = [...again.confidences.slice(0, at), ...again.confidences.slice(at + text.length)];
    if (added.some((p) => p < REREAD_MIN_CHAR_PROB)) return undefined;
    // Added digits are about as wide as the others: grow the region by their count, on their side.
    const before = Math.min(pad, at / text.length);
    const after = Math.min(pad, (wider.length - at - text.length) / text.length);
    return { ...again, quad: subQuad(reading, -before, 1 + after) };
  }

  /** Recognises the text in a quad given in reading order. */
  async function read(image: RawPixels, quad: Quad): Promise<DecodedText> {
    const { width: quadWidth, height: quadHeight } = sideLengths(quad);
    const ratio = quadWidth / Math.max(1e-6, quadHeight);
    const width = Math.floor(REC_HEIGHT * Math.max(REC_MIN_WIDTH / REC_HEIGHT, ratio));
    // Zero after normalisation is mid-grey: PaddleOCR's padding.
    const input = new Float32Array(3 * REC_HEIGHT * width);
    sampleCrop(image, quad, input, width, Math.min(width, Math.ceil(REC_HEIGHT * ratio)));
    const output = await recogniser.run({
      [recogniser.inputNames[0] as string]: new Tensor("float32", input, [1, 3, REC_HEIGHT, width]),
    });
    const probabilities = output[recogniser.outputNames[0] as string] as Tensor;
    const [, steps = 0, classes = 0] = probabilities.dims;
    if (classes !== alphabet.length + 1) {
      throw new Error(`recognition model has ${classes} classes but the dictionary ${alphabet.length} + blank`);
    }
    return ctcGreedyDecode(probabilities.data as Float32Array, steps, classes, alphabet);
  }

  async function readRegions(image: RawPixels, quads: readonly Quad[]) {
    const regions: (RecognisedRegion | null)[] = [];
    for (const quad of quads) regions.push((await recognise(image, quad)) ?? null);
    return regions;
  }

  return {
    async detectText(bytes, closerLook) {
      // Crops are cut from these pixels, not the detector's: small text reads better.
      const image = await uprightPixels(bytes, TEXT_SOURCE_LONG_SIDE);
      const quads = await findFine(image, await findCoarse(image), closerLook);
      return toTextDetections((await readRegions(image, quads)).filter((region) => region !== null));
    },
    findCoarse,
    findFine,
    readRegions,
  };
}

function sideLengths(quad: Quad): { width: number; height: number } {
  const [tl, tr, br, bl] = quad;
  const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
  return { width: Math.max(distance(tl, tr), distance(bl, br)), height: Math.max(distance(tl, bl), distance(tr, br)) };
}

interface Crop {
  /** The region's corners, starting where reading starts. */
  quad: Quad;
  /** Whether the text runs top to bottom (the quad's corners were turned). */
  vertical: boolean;
}

function readingQuad(quad: Quad): Crop {
  const { width, height } = sideLengths(quad);
  if (height / width >= VERTICAL_RATIO) {
    const [tl, tr, br, bl] = quad;
    // Vertical text read top to bottom: PaddleOCR turns the crop 90° counter-clockwise.
    return { quad: [tr, br, bl, tl], vertical: true };
  }
  return { quad, vertical: false };
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length;
}

/**
 * Warps the quad into the left `contentWidth` columns of a REC_HEIGHT-high CHW tensor (BGR,
 * normalised to -1..1), bilinear with supersampling so large text is averaged rather than aliased.
 */
function sampleCrop(image: RawPixels, quad: Quad, out: Float32Array, width: number, contentWidth: number): void {
  const [tl, tr, br, bl] = quad;
  const { height: sourceHeight } = sideLengths(quad);
  const k = Math.min(MAX_SUPERSAMPLE, Math.max(1, Math.ceil(sourceHeight / REC_HEIGHT)));
  const plane = REC_HEIGHT * width;
  const rgb = [0, 0, 0];
  for (let v = 0; v < REC_HEIGHT; v++) {
    for (let u = 0; u < contentWidth; u++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let sv = 0; sv < k; sv++) {
        const t = (v + (sv + 0.5) / k) / REC_HEIGHT;
        for (let su = 0; su < k; su++) {
          const s = (u + (su + 0.5) / k) / contentWidth;
          const topX = tl.x + (tr.x - tl.x) * s;
          const topY = tl.y + (tr.y - tl.y) * s;
          const bottomX = bl.x + (br.x - bl.x) * s;
          const bottomY = bl.y + (br.y - bl.y) * s;
          bilinear(image, topX + (bottomX - topX) * t - 0.5, topY + (bottomY - topY) * t - 0.5, rgb);
          r += rgb[0] as number;
          g += rgb[1] as number;
          b += rgb[2] as number;
        }
      }
      const scale = 1 / (k * k * 127.5);
      const index = v * width + u;
      out[index] = b * scale - 1;
      out[plane + index] = g * scale - 1;
      out[2 * plane + index] = r * scale - 1;
    }
  }
}

/** Pixel centres at integer coordinates; edges replicated, as OpenCV's warp does. */
function bilinear(image: RawPixels, x: number, y: number, out: number[]): void {
  const maxX = image.width - 1;
  const maxY = image.height - 1;
  const cx = Math.min(maxX, Math.max(0, x));
  const cy = Math.min(maxY, Math.max(0, y));
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const x1 = Math.min(maxX, x0 + 1);
  const y1 = Math.min(maxY, y0 + 1);
  const fx = cx - x0;
  const fy = cy - y0;
  const data = image.data;
  const i00 = (y0 * image.width + x0) * 3;
  const i01 = (y0 * image.width + x1) * 3;
  const i10 = (y1 * image.width + x0) * 3;
  const i11 = (y1 * image.width + x1) * 3;
  for (let c = 0; c < 3; c++) {
    const top = (data[i00 + c] as number) * (1 - fx) + (data[i01 + c] as number) * fx;
    const bottom = (data[i10 + c] as number) * (1 - fx) + (data[i11 + c] as number) * fx;
    out[c] = top * (1 - fy) + bottom * fy;
  }
}
