import type { BoundingBox, TextDetection } from "../../../ports/vision";
import type { DecodedText } from "./ctc";
import type { Point, Quad } from "./db-postprocess";

export interface RecognisedRegion extends DecodedText {
  /** Normalised to 0..1 of the image's width and height. */
  quad: Quad;
}

/**
 * Shapes the engine's regions like Rekognition's DetectText: every region is a LINE (ids first, in
 * reading order), followed by its space-separated WORDs, whose boxes are cut from the line's quad in
 * proportion to their character positions (the recogniser gives no per-word geometry).
 */
export function toTextDetections(regions: readonly RecognisedRegion[]): TextDetection[] {
  const lines: TextDetection[] = [];
  const words: TextDetection[] = [];
  for (const region of readingOrder(regions)) {
    const spans = wordSpans(region.chars);
    if (spans.length === 0) continue;
    const lineId = lines.length;
    lines.push({
      type: "LINE",
      text: spans.map((span) => span.text).join(" "),
      confidence: 100 * mean(region.confidences),
      box: boundingBox(region.quad),
      id: lineId,
    });
    for (const span of spans) {
      words.push({
        type: "WORD",
        text: span.text,
        confidence: 100 * mean(region.confidences.slice(span.start, span.end)),
        box: boundingBox(subQuad(region.quad, span.start / region.chars.length, span.end / region.chars.length)),
        id: 0,
        parentId: lineId,
      });
    }
  }
  words.forEach((word, i) => {
    word.id = lines.length + i;
  });
  return [...lines, ...words];
}

interface Span {
  text: string;
  start: number;
  end: number;
}

function wordSpans(chars: readonly string[]): Span[] {
  const spans: Span[] = [];
  let start = -1;
  for (let i = 0; i <= chars.length; i++) {
    const blank = i === chars.length || (chars[i] ?? "").trim() === "";
    if (!blank && start < 0) start = i;
    if (blank && start >= 0) {
      spans.push({ text: chars.slice(start, i).join(""), start, end: i });
      start = -1;
    }
  }
  return spans;
}

/**
 * Top to bottom, then left to right within a row, as PaddleOCR's sorted_boxes; "same row" is
 * relative to the text's height because boxes are normalised.
 */
function readingOrder(regions: readonly RecognisedRegion[]): RecognisedRegion[] {
  const sorted = [...regions].sort((a, b) => a.quad[0].y - b.quad[0].y || a.quad[0].x - b.quad[0].x);
  for (let i = 0; i < sorted.length - 1; i++) {
    for (let j = i; j >= 0; j--) {
      const a = sorted[j] as RecognisedRegion;
      const b = sorted[j + 1] as RecognisedRegion;
      const sameRow = Math.abs(b.quad[0].y - a.quad[0].y) < Math.min(quadHeight(a.quad), quadHeight(b.quad)) / 2;
      if (!sameRow || b.quad[0].x >= a.quad[0].x) break;
      sorted[j] = b;
      sorted[j + 1] = a;
    }
  }
  return sorted;
}

function quadHeight(quad: Quad): number {
  return Math.hypot(quad[3].x - quad[0].x, quad[3].y - quad[0].y);
}

/** The part of the quad between fractions `from` and `to` of its reading direction; beyond 0..1 it is extended. */
export function subQuad(quad: Quad, from: number, to: number): Quad {
  const [tl, tr, br, bl] = quad;
  return [lerp(tl, tr, from), lerp(tl, tr, to), lerp(bl, br, to), lerp(bl, br, from)];
}

function lerp(a: Point, b: Point, t: number): Point {
  return { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t };
}

function boundingBox(quad: Quad): BoundingBox {
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  const xs = quad.map((p) => clamp(p.x));
  const ys = quad.map((p) => clamp(p.y));
  const left = Math.min(...xs);
  const top = Math.min(...ys);
  return { left, top, width: Math.max(...xs) - left, height: Math.max(...ys) - top };
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length;
}
