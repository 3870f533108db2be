import type { Quad } from "./db-postprocess";

/** An axis-aligned rectangle in pixels. */
export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export function quadBounds(quad: Quad): Rect {
  const xs = quad.map((p) => p.x);
  const ys = quad.map((p) => p.y);
  return { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
}

const overlaps = (a: Rect, b: Rect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** Unions overlapping rectangles until none overlap, so no pixel is detected twice. */
export function mergeOverlapping(rects: readonly Rect[]): Rect[] {
  const merged = rects.map((rect) => ({ ...rect }));
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = 0; i < merged.length && !changed; i++) {
      for (let j = i + 1; j < merged.length; j++) {
        const a = merged[i] as Rect;
        const b = merged[j] as Rect;
        if (!overlaps(a, b)) continue;
        merged[i] = {
          left: Math.min(a.left, b.left),
          top: Math.min(a.top, b.top),
          right: Math.max(a.right, b.right),
          bottom: Math.max(a.bottom, b.bottom),
        };
        merged.splice(j, 1);
        changed = true;
        break;
      }
    }
  }
  return merged;
}

export const contains = (outer: Rect, inner: Rect): boolean =>
  inner.left >= outer.left && inner.top >= outer.top && inner.right <= outer.right && inner.bottom <= outer.bottom;

/** Whether `box` reaches an edge of `window` that is not also the edge of the `width`×`height` photo. */
export function touchesInnerEdge(box: Rect, window: Rect, width: number, height: number): boolean {
  const slack = 1;
  return (
    (window.left > 0 && box.left <= window.left + slack) ||
    (window.top > 0 && box.top <= window.top + slack) ||
    (window.right < width && box.right >= window.right - slack) ||
    (window.bottom < height && box.bottom >= window.bottom - slack)
  );
}

export const area = (rect: Rect): number => (rect.right - rect.left) * (rect.bottom - rect.top);

export interface ScaledRect {
  rect: Rect;
  /** Detector pixels per photo pixel. */
  scale: number;
}

/** mergeOverlapping for windows with a scale: a merged window is seen at the largest of its parts'. */
export function mergeScaled(windows: readonly ScaledRect[]): ScaledRect[] {
  return mergeOverlapping(windows.map(({ rect }) => rect)).map((rect) => ({
    rect,
    scale: Math.max(...windows.filter((window) => contains(rect, window.rect)).map(({ scale }) => scale)),
  }));
}

/**
 * Splits `rect` into tiles of at most `maxSide` detector pixels a side at `scale`, neighbours
 * overlapping by `overlap` detector pixels; each tile also names the part it owns (up to the middle
 * of each overlap), so text found by two tiles is kept once.
 */
export function tilesOf(rect: Rect, scale: number, maxSide: number, overlap: number): { rect: Rect; owned: Rect }[] {
  const shared = overlap / scale;
  const spans = (from: number, to: number) => {
    const length = (to - from) * scale;
    const count = length <= maxSide ? 1 : Math.ceil((length - overlap) / (maxSide - overlap));
    const step = (to - from - shared) / count;
    return Array.from({ length: count }, (_, i) => ({
      start: from + i * step,
      // The last tile ends exactly at `to`: a sum of floats can land past the photo's edge.
      end: i === count - 1 ? to : from + i * step + step + shared,
      ownedStart: i === 0 ? -Infinity : from + i * step + shared / 2,
      ownedEnd: i === count - 1 ? Infinity : from + (i + 1) * step + shared / 2,
    }));
  };
  return spans(rect.top, rect.bottom).flatMap((rows) =>
    spans(rect.left, rect.right).map((columns) => ({
      rect: { left: columns.start, top: rows.start, right: columns.end, bottom: rows.end },
      owned: { left: columns.ownedStart, top: rows.ownedStart, right: columns.ownedEnd, bottom: rows.ownedEnd },
    })),
  );
}

export function holdsCentre(owned: Rect, box: Rect): boolean {
  const x = (box.left + box.right) / 2;
  const y = (box.top + box.bottom) / 2;
  return x >= owned.left && x < owned.right && y >= owned.top && y < owned.bottom;
}
