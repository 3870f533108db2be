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
