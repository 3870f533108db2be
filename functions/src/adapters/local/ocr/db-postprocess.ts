/**
 * DB (Differentiable Binarization) post-processing, as PaddleOCR's DBPostProcess does it: threshold
 * the detector's probability map, take each connected region's minimum-area rectangle, keep it when
 * the mean probability inside is high enough, then grow it back ("unclip"), because the model was
 * trained to predict text regions shrunk by a fixed ratio.
 */

export interface Point {
  x: number;
  y: number;
}

/** Corners clockwise from the top-left, so top-left → top-right is the reading direction. */
export type Quad = readonly [Point, Point, Point, Point];

export function mapQuad(quad: Quad, f: (p: Point) => Point): Quad {
  return [f(quad[0]), f(quad[1]), f(quad[2]), f(quad[3])];
}

export interface DbOptions {
  /** A pixel is text above this probability. */
  threshold: number;
  /** A region is kept when the mean probability inside its rectangle reaches this. */
  boxThreshold: number;
  unclipRatio: number;
  /** Regions whose short side is below this many map pixels are noise. */
  minSize: number;
  maxCandidates: number;
}

/** PaddleOCR's inference defaults for PP-OCRv4 detection. */
export const DB_DEFAULTS: DbOptions = {
  threshold: 0.3,
  boxThreshold: 0.6,
  unclipRatio: 1.5,
  minSize: 3,
  maxCandidates: 1000,
};

export interface DetectedBox {
  /** In probability-map pixels. */
  quad: Quad;
  /** Mean text probability inside the region's rectangle, 0..1. */
  score: number;
}

interface Rect {
  cx: number;
  cy: number;
  /** Unit vector along the `width` side. */
  ux: number;
  uy: number;
  width: number;
  height: number;
}

export function boxesFromProbabilityMap(
  prob: Float32Array,
  width: number,
  height: number,
  options: DbOptions = DB_DEFAULTS,
): DetectedBox[] {
  const boxes: DetectedBox[] = [];
  const visited = new Uint8Array(width * height);
  // One flood-fill stack and one pixel list serve every region: regions can be as large as the map.
  const stack = new Int32Array(width * height);
  const pixels = new Int32Array(width * height);
  let candidates = 0;

  for (let start = 0; start < prob.length && candidates < options.maxCandidates; start++) {
    if (visited[start] || (prob[start] ?? 0) <= options.threshold) continue;
    candidates++;
    const count = floodFill(prob, width, height, options.threshold, start, visited, stack, pixels);
    const rect = minAreaRect(convexHull(rowExtremes(pixels, count, width)));
    if (Math.min(rect.width, rect.height) < options.minSize) continue;
    const score = meanInside(prob, width, height, rect);
    if (score < options.boxThreshold) continue;
    const grown = unclip(rect, options.unclipRatio);
    if (Math.min(grown.width, grown.height) < options.minSize + 2) continue;
    boxes.push({ quad: orderCorners(corners(grown)), score });
  }
  return boxes;
}

/** 8-connected, like the outer contours OpenCV's findContours traces. Returns the region's size. */
function floodFill(
  prob: Float32Array,
  width: number,
  height: number,
  threshold: number,
  start: number,
  visited: Uint8Array,
  stack: Int32Array,
  pixels: Int32Array,
): number {
  let top = 0;
  let count = 0;
  stack[top++] = start;
  visited[start] = 1;
  while (top > 0) {
    const index = stack[--top] as number;
    pixels[count++] = index;
    const x = index % width;
    const y = (index - x) / width;
    for (let dy = -1; dy <= 1; dy++) {
      const ny = y + dy;
      if (ny < 0 || ny >= height) continue;
      for (let dx = -1; dx <= 1; dx++) {
        const nx = x + dx;
        if (nx < 0 || nx >= width) continue;
        const next = ny * width + nx;
        if (visited[next] || (prob[next] ?? 0) <= threshold) continue;
        visited[next] = 1;
        stack[top++] = next;
      }
    }
  }
  return count;
}

/** The leftmost and rightmost pixel of every row span the same convex hull as the whole region. */
function rowExtremes(pixels: Int32Array, count: number, width: number): Point[] {
  const rows = new Map<number, { min: number; max: number }>();
  for (let i = 0; i < count; i++) {
    const index = pixels[i] as number;
    const x = index % width;
    const y = (index - x) / width;
    const row = rows.get(y);
    if (!row) rows.set(y, { min: x, max: x });
    else if (x < row.min) row.min = x;
    else if (x > row.max) row.max = x;
  }
  const points: Point[] = [];
  for (const [y, { min, max }] of rows) {
    points.push({ x: min, y });
    if (max !== min) points.push({ x: max, y });
  }
  return points;
}

/** Andrew's monotone chain; collinear points are dropped. */
export function convexHull(points: readonly Point[]): Point[] {
  const sorted = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (sorted.length < 3) return sorted;
  const cross = (o: Point, a: Point, b: Point) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const half = (input: Point[]) => {
    const chain: Point[] = [];
    for (const p of input) {
      while (chain.length >= 2 && cross(chain[chain.length - 2] as Point, chain[chain.length - 1] as Point, p) <= 0) {
        chain.pop();
      }
      chain.push(p);
    }
    chain.pop();
    return chain;
  };
  return [...half(sorted), ...half(sorted.reverse())];
}

/** Rotating calipers: the minimum-area rectangle has a side on one of the hull's edges. */
export function minAreaRect(hull: readonly Point[]): Rect {
  const first = hull[0] ?? { x: 0, y: 0 };
  let best: Rect = { cx: first.x, cy: first.y, ux: 1, uy: 0, width: 0, height: 0 };
  let bestArea = Number.POSITIVE_INFINITY;
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i] as Point;
    const b = hull[(i + 1) % hull.length] as Point;
    const length = Math.hypot(b.x - a.x, b.y - a.y);
    if (length === 0) continue;
    const ux = (b.x - a.x) / length;
    const uy = (b.y - a.y) / length;
    let minU = Number.POSITIVE_INFINITY;
    let maxU = Number.NEGATIVE_INFINITY;
    let minV = Number.POSITIVE_INFINITY;
    let maxV = Number.NEGATIVE_INFINITY;
    for (const p of hull) {
      const u = p.x * ux + p.y * uy;
      const v = -p.x * uy + p.y * ux;
      minU = Math.min(minU, u);
      maxU = Math.max(maxU, u);
      minV = Math.min(minV, v);
      maxV = Math.max(maxV, v);
    }
    const area = (maxU - minU) * (maxV - minV);
    if (area < bestArea) {
      bestArea = area;
      const mu = (minU + maxU) / 2;
      const mv = (minV + maxV) / 2;
      best = { cx: mu * ux - mv * uy, cy: mu * uy + mv * ux, ux, uy, width: maxU - minU, height: maxV - minV };
    }
  }
  return best;
}

/** PaddleOCR's "fast" box score: mean probability over the map pixels inside the rectangle. */
function meanInside(prob: Float32Array, width: number, height: number, rect: Rect): number {
  const cs = corners(rect);
  const xs = cs.map((p) => p.x);
  const ys = cs.map((p) => p.y);
  const x0 = Math.max(0, Math.floor(Math.min(...xs)));
  const x1 = Math.min(width - 1, Math.ceil(Math.max(...xs)));
  const y0 = Math.max(0, Math.floor(Math.min(...ys)));
  const y1 = Math.min(height - 1, Math.ceil(Math.max(...ys)));
  const halfW = rect.width / 2 + 1e-6;
  const halfH = rect.height / 2 + 1e-6;
  let sum = 0;
  let n = 0;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const dx = x - rect.cx;
      const dy = y - rect.cy;
      if (Math.abs(dx * rect.ux + dy * rect.uy) > halfW || Math.abs(-dx * rect.uy + dy * rect.ux) > halfH) continue;
      sum += prob[y * width + x] ?? 0;
      n++;
    }
  }
  return n === 0 ? 0 : sum / n;
}

/**
 * Offsetting a rectangle outward by d (as PaddleOCR's pyclipper call does, with round joins) and
 * taking the minimum-area rectangle again gives the rectangle grown by d on every side.
 */
function unclip(rect: Rect, ratio: number): Rect {
  const perimeter = 2 * (rect.width + rect.height);
  const distance = perimeter === 0 ? 0 : (rect.width * rect.height * ratio) / perimeter;
  return { ...rect, width: rect.width + 2 * distance, height: rect.height + 2 * distance };
}

function corners(rect: Rect): Point[] {
  const wx = (rect.ux * rect.width) / 2;
  const wy = (rect.uy * rect.width) / 2;
  const hx = (-rect.uy * rect.height) / 2;
  const hy = (rect.ux * rect.height) / 2;
  return [
    { x: rect.cx - wx - hx, y: rect.cy - wy - hy },
    { x: rect.cx + wx - hx, y: rect.cy + wy - hy },
    { x: rect.cx + wx + hx, y: rect.cy + wy + hy },
    { x: rect.cx - wx + hx, y: rect.cy - wy + hy },
  ];
}

/** PaddleOCR's get_mini_boxes order: of the two leftmost corners the upper is top-left, and so on. */
export function orderCorners(points: readonly Point[]): Quad {
  const [a, b, c, d] = [...points].sort((p, q) => p.x - q.x) as [Point, Point, Point, Point];
  const [topLeft, bottomLeft] = a.y <= b.y ? [a, b] : [b, a];
  const [topRight, bottomRight] = c.y <= d.y ? [c, d] : [d, c];
  return [topLeft, topRight, bottomRight, bottomLeft];
}
