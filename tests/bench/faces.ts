/**
 * Selfie search benchmark (issue 23, item 5): identities from the RBNR race photos, where the same
 * bib in several photos of one set is the same runner and `facep[i]` is the face of `bibs[i]`.
 *
 *   npm run bench:faces -- [--data DIR] [--distractors DIR]... [--gallery N] [--short]
 *
 * Every labelled face of a runner seen in ≥ 2 photos is the selfie once; the gallery is every face
 * the detector finds in the set's other photos plus the distractor sets' faces (other races, so
 * never the same person); the runner's other photos are the expected results. Reported: precision
 * and recall at the shipped SAME_PERSON_DISTANCE (and with the look-alikes shown apart, up to
 * POSSIBLE_DISTANCE), the threshold sweep, a leave-one-set-out choice of each
 * (set1 and set2 are different races), ms per descriptor, and ms per search over `--gallery`
 * descriptors (the real ones, repeated with a small perturbation). --short runs on the face-api
 * sample photos alone, to check the pipeline end to end. The last line is one JSON object.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import sharp from "sharp";
import {
  FaceIndex,
  POSSIBLE_DISTANCE,
  SAME_PERSON_DISTANCE,
} from "../../functions/src/adapters/local/faces/face-index";
import { createLocalFaceDetector } from "../../functions/src/adapters/local/faces/index";
import { compactDescriptor } from "../../functions/src/data/photo-faces";
import { type BoundingBox, confidentFaces } from "../../functions/src/ports/vision";
import { percentile } from "./bibs/score";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const DATA_ROOT = resolve(ROOT, "../shared/data");

const { values } = parseArgs({
  options: {
    data: { type: "string", default: join(DATA_ROOT, "rbnr-dev") },
    distractors: { type: "string", multiple: true },
    gallery: { type: "string", default: "5000" },
    short: { type: "boolean", default: false },
  },
});

/** Half of the smaller box inside the other: the detector's box and the label frame one face. */
const SAME_FACE_OVERLAP = 0.5;

interface Truth {
  bibs: (string | number)[];
  facep?: [number, number, number, number][];
}

/** One face in one photo, with its identity where the ground truth names it. */
interface Face {
  photo: string;
  /** "set/bib", or undefined for a face nobody labelled. */
  runner: string | undefined;
  /** As a selfie's face is searched with. */
  descriptor: Float32Array;
  /** As the product keeps it (one signed byte a value), for the face's part in the gallery. */
  kept: Float32Array;
}

interface Query {
  set: string;
  selfie: Face;
  expected: Set<string>;
}

const detector = await createLocalFaceDetector();
const describeMs: number[] = [];

async function describe(bytes: Buffer, boxes: BoundingBox[]): Promise<Float32Array[]> {
  if (boxes.length === 0) return [];
  const started = performance.now();
  const descriptors = await detector.describeFaces(bytes, boxes);
  describeMs.push((performance.now() - started) / boxes.length);
  return descriptors;
}

function asKept(descriptor: Float32Array): Float32Array {
  const { scale, codes } = compactDescriptor(descriptor);
  return Float32Array.from(codes, (code) => code * scale);
}

function overlap(a: BoundingBox, b: BoundingBox): number {
  const w = Math.max(0, Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left));
  const h = Math.max(0, Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top));
  return (w * h) / Math.min(a.width * a.height, b.width * b.height);
}

/** Faces of a labelled set: each labelled face takes the detector's box over it, else its own box. */
async function labelledFaces(dir: string): Promise<{ faces: Face[]; fromLabel: number; misplaced: number }> {
  const truth = JSON.parse(readFileSync(join(dir, "gt.json"), "utf8")) as Record<string, Truth>;
  const faces: Face[] = [];
  let fromLabel = 0;
  let misplaced = 0;
  for (const [photo, { bibs, facep = [] }] of Object.entries(truth)) {
    const bytes = readFileSync(join(dir, photo));
    const { width = 1, height = 1 } = await sharp(bytes).metadata();
    const detected = confidentFaces(await detector.detectFaces(bytes)).map((face) => face.box);
    const boxes: BoundingBox[] = [];
    const runners: (string | undefined)[] = [];
    facep.forEach(([minRow, maxRow, minCol, maxCol], i) => {
      const label = {
        left: minCol / width,
        top: minRow / height,
        width: (maxCol - minCol) / width,
        height: (maxRow - minRow) / height,
      };
      const match = detected.find((box) => overlap(box, label) >= SAME_FACE_OVERLAP);
      if (!match) fromLabel++;
      boxes.push(match ?? label);
      runners.push(`${photo.split("/")[0]}/${String(bibs[i]).replace(/^0+/, "")}`);
    });
    // Checks facep[i] belongs to bibs[i]: a wearer's bib lies below their face.
    const tagp = (truth[photo] as { tagp?: number[][] }).tagp ?? [];
    facep.forEach((face, i) => {
      const tag = tagp[i];
      if (!tag || tag[0] === undefined || face[1] === undefined || tag[0] < face[1]) misplaced++;
    });
    for (const box of detected)
      if (boxes.every((taken) => overlap(taken, box) < SAME_FACE_OVERLAP)) {
        boxes.push(box);
        runners.push(undefined);
      }
    const descriptors = await describe(bytes, boxes);
    descriptors.forEach((descriptor, i) => {
      faces.push({ photo, runner: runners[i], descriptor, kept: asKept(descriptor) });
    });
  }
  return { faces, fromLabel, misplaced };
}

/** Every face the detector finds in a set without face labels: nobody the queries look for. */
async function distractorFaces(dir: string, files: string[]): Promise<Face[]> {
  const faces: Face[] = [];
  for (const file of files) {
    const bytes = readFileSync(join(dir, file));
    const boxes = confidentFaces(await detector.detectFaces(bytes)).map((face) => face.box);
    for (const descriptor of await describe(bytes, boxes))
      faces.push({ photo: `${dir}/${file}`, runner: undefined, descriptor, kept: asKept(descriptor) });
  }
  return faces;
}

function queriesOf(faces: Face[]): Query[] {
  const photosOf = new Map<string, Set<string>>();
  for (const face of faces)
    if (face.runner) photosOf.set(face.runner, (photosOf.get(face.runner) ?? new Set()).add(face.photo));
  return faces.flatMap((selfie) => {
    const photos = selfie.runner ? photosOf.get(selfie.runner) : undefined;
    if (!photos || photos.size < 2) return [];
    const expected = new Set([...photos].filter((photo) => photo !== selfie.photo));
    return [{ set: selfie.photo.split("/")[0] ?? "", selfie, expected }];
  });
}

const distance = (a: Float32Array, b: Float32Array) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += ((a[i] as number) - (b[i] as number)) ** 2;
  return Math.sqrt(sum);
};

interface Ranked {
  query: Query;
  /** Nearest face distance of each gallery photo. */
  nearest: Map<string, number>;
}

function rank(queries: Query[], gallery: Face[]): Ranked[] {
  return queries.map((query) => {
    const nearest = new Map<string, number>();
    for (const face of gallery) {
      // The gallery is the selfie's own set (its other photos) and the distractors (absolute paths).
      if (face.photo === query.selfie.photo) continue;
      if (!face.photo.startsWith("/") && face.photo.split("/")[0] !== query.set) continue;
      const d = distance(query.selfie.descriptor, face.kept);
      if (d < (nearest.get(face.photo) ?? Number.POSITIVE_INFINITY)) nearest.set(face.photo, d);
    }
    return { query, nearest };
  });
}

function score(ranked: Ranked[], threshold: number) {
  let found = 0;
  let right = 0;
  let expected = 0;
  for (const { query, nearest } of ranked) {
    expected += query.expected.size;
    for (const [photo, d] of nearest)
      if (d < threshold) {
        found++;
        if (query.expected.has(photo)) right++;
      }
  }
  const precision = found === 0 ? 1 : right / found;
  const recall = expected === 0 ? 0 : right / expected;
  return { threshold, precision, recall, f1: (2 * precision * recall) / (precision + recall || 1) };
}

const SWEEP = Array.from({ length: 21 }, (_, i) => Math.round((0.45 + i * 0.025) * 1000) / 1000);
const round = (v: number) => Math.round(v * 1000) / 1000;

/** ROC AUC over (selfie, gallery photo) pairs: how often a right photo lies nearer than a wrong one. */
function auc(ranked: Ranked[]): number {
  const right: number[] = [];
  const wrong: number[] = [];
  for (const { query, nearest } of ranked)
    for (const [photo, d] of nearest) (query.expected.has(photo) ? right : wrong).push(d);
  wrong.sort((x, y) => x - y);
  let below = 0;
  for (const d of right) {
    let lo = 0;
    let hi = wrong.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((wrong[mid] as number) <= d) lo = mid + 1;
      else hi = mid;
    }
    below += wrong.length - lo;
  }
  return right.length * wrong.length === 0 ? 0 : below / (right.length * wrong.length);
}

/**
 * The largest recall at precision ≥ `minPrecision` (the smallest such threshold where several tie),
 * else the best F1: what we would ship from this set alone. 0.95 for the certain matches, 0.80 for
 * the look-alikes shown apart.
 */
function choose(ranked: Ranked[], minPrecision: number): number {
  const scored = SWEEP.map((t) => score(ranked, t));
  const precise = scored
    .filter((s) => s.precision >= minPrecision)
    .sort((a, b) => b.recall - a.recall || a.threshold - b.threshold);
  return (precise[0] ?? [...scored].sort((a, b) => b.f1 - a.f1)[0] ?? { threshold: SAME_PERSON_DISTANCE }).threshold;
}

let faces: Face[];
let queries: Query[];
let gallery: Face[];
if (values.short) {
  // The face-api demo photos: no identities, but every stage runs and is timed.
  const dir = join(dirname(fileURLToPath(import.meta.resolve("@vladmandic/face-api/package.json"))), "demo");
  faces = await distractorFaces(dir, ["sample1.jpg", "sample2.jpg"]);
  gallery = faces;
  queries = faces.map((selfie) => ({ set: "", selfie, expected: new Set() }));
} else {
  const dir = resolve(values.data);
  const labelled = await labelledFaces(dir);
  const distractorDirs = values.distractors ?? [join(DATA_ROOT, "casablanca10k"), join(DATA_ROOT, "hvv")];
  const distractors: Face[] = [];
  for (const other of distractorDirs.filter((d) => existsSync(join(d, "gt.json")))) {
    const files = Object.keys(JSON.parse(readFileSync(join(other, "gt.json"), "utf8")));
    distractors.push(...(await distractorFaces(resolve(other), files)));
  }
  faces = labelled.faces;
  gallery = [...labelled.faces, ...distractors];
  queries = queriesOf(labelled.faces);
  console.log(
    `${dir}: ${labelled.faces.length} faces (${labelled.fromLabel} labelled faces the detector missed, described from the label's box); ` +
      `${labelled.misplaced} labelled faces not above their bib (facep/bibs alignment check); ` +
      `${distractors.length} distractor faces from ${distractorDirs.join(", ")}`,
  );
}
await detector.close();

const ranked = rank(queries, gallery);
const shipped = score(ranked, SAME_PERSON_DISTANCE);
const withLookAlikes = score(ranked, POSSIBLE_DISTANCE);
const rocAuc = round(auc(ranked));
console.log(`\n${queries.length} selfie queries, ${gallery.length} gallery faces; ROC AUC ${rocAuc}`);
console.log("threshold  precision  recall  f1");
for (const t of SWEEP) {
  const s = score(ranked, t);
  console.log(
    `${t.toFixed(3).padEnd(10)} ${s.precision.toFixed(3).padEnd(10)} ${s.recall.toFixed(3).padEnd(7)} ${s.f1.toFixed(3)}${
      t === SAME_PERSON_DISTANCE
        ? "  ← shipped"
        : t === POSSIBLE_DISTANCE
          ? "  ← look-alikes shown apart up to here"
          : ""
    }`,
  );
}

const sets = [...new Set(queries.map((q) => q.set))].sort();
if (sets.length > 1) {
  for (const [what, minPrecision] of [
    ["certain", 0.95],
    ["with look-alikes", 0.8],
  ] as const) {
    console.log(
      `\nleave one set out, ${what} (threshold chosen on the others: largest recall at precision ≥ ${minPrecision})`,
    );
    for (const held of sets) {
      const chosen = choose(
        ranked.filter((r) => r.query.set !== held),
        minPrecision,
      );
      const s = score(
        ranked.filter((r) => r.query.set === held),
        chosen,
      );
      const count = ranked.filter((r) => r.query.set === held).length;
      console.log(
        `${held}: ${count} queries, threshold ${chosen} → precision ${s.precision.toFixed(3)}, recall ${s.recall.toFixed(3)}`,
      );
    }
  }
}

// Search time: the real descriptors, repeated with a small perturbation (±0.02 per value, then
// renormalised) until the gallery holds --gallery faces, each its own photo.
const index = new FaceIndex();
const size = Number(values.gallery);
let seed = 1;
const noise = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return (seed / 2 ** 31 - 0.5) * 0.04;
};
for (let i = 0; i < size; i++) {
  const source = (faces[i % faces.length] as Face).descriptor;
  const copy = source.map((v) => v + (i < faces.length ? 0 : noise()));
  const norm = Math.hypot(...copy);
  index.add(`photo-${i}`, compactDescriptor(copy.map((v) => v / norm)));
}
const searchMs: number[] = [];
for (const query of queries.length > 0 ? queries : [{ selfie: faces[0] as Face }]) {
  const started = performance.now();
  index.search(query.selfie.descriptor);
  searchMs.push(performance.now() - started);
}
const msP95 = round(percentile(searchMs, 95));
const describeP50 = round(percentile(describeMs, 50));
console.log(
  `\nsearch over ${index.size} descriptors: p50 ${round(percentile(searchMs, 50))} ms, p95 ${msP95} ms; ` +
    `descriptor: p50 ${describeP50} ms, p95 ${round(percentile(describeMs, 95))} ms per face`,
);
console.log(
  JSON.stringify({
    queries: queries.length,
    precision: round(shipped.precision),
    recall: round(shipped.recall),
    msP95,
    threshold: SAME_PERSON_DISTANCE,
    withLookAlikes: {
      threshold: POSSIBLE_DISTANCE,
      precision: round(withLookAlikes.precision),
      recall: round(withLookAlikes.recall),
    },
    auc: rocAuc,
    galleryFaces: gallery.length,
    searchOver: index.size,
    describeMsP50: describeP50,
  }),
);
