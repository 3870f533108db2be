/**
 * Race-day load on the athlete's side: every runner looks for their photos at once.
 *
 *   npm run bench:search -- [--photos 5000] [--bibs 1000] [--connections 100] [--seconds 20] [--baseline DIR]
 *                           [--endpoints search,bibPhotos]
 *
 * 1. Seeds one event through the real table before the runtime starts: dynalite on a fresh data
 *    dir, written with the project's own repositories (createPhotoRepository, createEventRepository),
 *    exactly the items the pipeline leaves behind for a processed photo — no pipeline, no images.
 *    Photo i shows bib i mod --bibs; every fourth photo shows a second bib too (a pack of runners).
 * 2. Starts the embedded runtime on that data dir as `npm start` does (tests/support/server.ts).
 * 3. Loads each endpoint the athlete's screens call, one after the other, with autocannon
 *    (--connections for --seconds each), bibs and pages rotating on every request.
 *
 * With --baseline, a checkout of another commit (e.g. a clone of main with its own `npm ci`) is
 * loaded the same way on the same seeded data in the same run, before this one, for a side-by-side.
 *
 * Prints a table, the seeding time, and as the LAST line one JSON object:
 * { "<endpoint>": { "p50Ms", "p97_5Ms", "p99Ms", "rps", "errors", "cpuMsPerRequest" }, ... }
 * where errors = non-2xx answers + socket errors + timeouts.
 */
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { limits } from "@dorsal/shared";
import autocannon from "autocannon";
import { ensureTable, startDynalite } from "../../functions/local/storage";
import { createDynamoTable } from "../../functions/src/adapters/aws/dynamodb-table";
import { storagePaths } from "../../functions/src/app/storage-paths";
import { createBibLinkRepository } from "../../functions/src/data/bib-links";
import { createEventRepository } from "../../functions/src/data/events";
import { createPhotoRepository, newPhotoFields, type PhotoRecord } from "../../functions/src/data/photos";
import { activeEvent } from "../support/in-process";
import { startDorsal } from "../support/server";
import { cpuSecondsOf } from "./proc";

const { values } = parseArgs({
  options: {
    photos: { type: "string", default: "5000" },
    bibs: { type: "string", default: "1000" },
    connections: { type: "string", default: "100" },
    seconds: { type: "string", default: "20" },
    baseline: { type: "string" },
    endpoints: { type: "string" },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log(
    "npm run bench:search -- [--photos 5000] [--bibs 1000] [--connections 100] [--seconds 20] [--baseline DIR]",
  );
  process.exit(0);
}
const photoCount = Number(values.photos);
const bibCount = Number(values.bibs);
const connections = Number(values.connections);
const seconds = Number(values.seconds);
if (![photoCount, bibCount, connections, seconds].every((n) => Number.isInteger(n) && n > 0) || bibCount > photoCount)
  throw new Error("--photos, --bibs, --connections and --seconds are positive integers, with --bibs ≤ --photos");

/**
 * Loads only these endpoints (by name), in this order, e.g. to profile one. Order matters: the first
 * endpoint meets every bib for the first time (nothing read or signed yet), as race day does.
 */
const onlyEndpoints = values.endpoints?.split(",");

/** The runtime's defaults (functions/local/settings.ts, main.ts): the seeded table is the one it opens. */
const tableName = "dorsal";
const region = "us-east-1";
const eventId = 1;
const bibOf = (index: number) => String(1001 + index);

/** Runs `work` over `items` with at most `width` in flight (dynalite answers one request at a time anyway). */
async function inPool<T>(items: readonly T[], width: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

/** A deterministic stand-in for randomness, so every run seeds the same items. */
function pseudoRandom(seed: number) {
  let state = (seed * 2654435761) >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/** The text a race photo shows besides bibs: sponsors, the race's name, other runners' shirts. */
const sceneText = ["MEDIA", "MARATON", "MEDELLIN", "2026", "POSTOBON", "ADIDAS", "21K", "META", "HIDRATACION", "KM 15"];

/**
 * A processed photo as the pipeline's record step leaves it: the engine's every LINE and WORD
 * (10–40 of them, boxes at full precision; stored in the photo's text item), 1–4 faces, per-stage
 * timings. Reads of the photo pay for all but the text unless they ask for less.
 */
function processedPhoto(index: number, bibs: string[], uploadedAt: Date): PhotoRecord {
  const random = pseudoRandom(index + 1);
  const box = () => ({ left: random() * 0.8, top: random() * 0.8, width: random() * 0.2, height: random() * 0.1 });
  const id = `bench${String(index).padStart(8, "0")}`;
  const machineBibs = bibs.map((number) => ({
    number,
    confidence: 90 + random() * 10,
    box: box(),
    source: "machine" as const,
  }));
  const words = [
    ...machineBibs.map(({ number, confidence, box }) => ({ text: number, confidence, box })),
    ...Array.from({ length: 5 + Math.floor(random() * 16) }, () => ({
      text: sceneText[Math.floor(random() * sceneText.length)] as string,
      confidence: 60 + random() * 40,
      box: box(),
    })),
  ];
  return {
    ...newPhotoFields,
    id,
    eventId,
    filename: `${id}.jpg`,
    originalFilename: `IMG_${String(4000 + index).padStart(4, "0")}.JPG`,
    originalKey: storagePaths.original(eventId, id, "jpg"),
    webKey: storagePaths.web(eventId, id),
    thumbnailKey: storagePaths.thumbnail(eventId, id),
    previewKey: storagePaths.preview(eventId, id),
    previewThumbnailKey: storagePaths.previewThumbnail(eventId, id),
    detectedDorsals: bibs,
    bibs: machineBibs,
    machineBibs,
    // Each word under its own line, as Rekognition answers for single-word lines.
    textDetections: words.flatMap(({ text, confidence, box }, at) => [
      { type: "LINE" as const, text, confidence, box, id: at * 2 },
      { type: "WORD" as const, text, confidence, box, id: at * 2 + 1, parentId: at * 2 },
    ]),
    imageSize: { width: 4000, height: 3000 },
    faces: Array.from({ length: 1 + Math.floor(random() * 4) }, () => ({ confidence: 90 + random() * 10, box: box() })),
    processed: true,
    processingStatus: "successful",
    uploadedAt: uploadedAt.toISOString(),
    uploadedBy: "bench-photographer",
    processedAt: new Date(uploadedAt.getTime() + 4000).toISOString(),
    recognition: {
      engine: "bench",
      version: "1",
      ms: { variants: 310 + random() * 100, decode: 95.2, text: 420 + random() * 200, faces: 130 + random() * 50 },
    },
    contentHash: createHash("sha256").update(id).digest("hex"),
    countedInTotal: true,
    attempts: 1,
  };
}

/** Seeds the event into `dataDir`'s table through the repositories; returns the bibs that have photos. */
async function seed(dataDir: string): Promise<{ bibs: string[]; ms: number }> {
  const started = performance.now();
  const dynamo = await startDynalite(dataDir);
  try {
    await ensureTable(dynamo.endpoint, region, tableName);
    const table = createDynamoTable(dynamo.send, tableName);
    const events = createEventRepository(table);
    const photos = createPhotoRepository(table);
    const bibLinks = createBibLinkRepository(table);
    const id = await events.nextId();
    if (id !== eventId) throw new Error(`expected a fresh table (event id ${id})`);
    await events.create(activeEvent(eventId, "Media Maratón de Carga"));

    const raceStart = Date.parse("2026-11-29T07:00:00Z");
    const seeded = Array.from({ length: photoCount }, (_, index) => {
      const bibs = [bibOf(index % bibCount)];
      if (index % 4 === 0) bibs.push(bibOf((index * 7 + 3) % bibCount));
      return processedPhoto(index, [...new Set(bibs)], new Date(raceStart + index * 1500));
    });
    await inPool(seeded, 16, async ({ textDetections = [], ...photo }) => {
      if (!(await photos.createPending(photo))) throw new Error(`photo ${photo.id} already exists`);
      await photos.storeText(photo.id, textDetections);
      for (const bib of photo.detectedDorsals) await bibLinks.linkBib(eventId, bib, photo.id, photo.uploadedAt);
    });
    const links = seeded.reduce((sum, photo) => sum + photo.detectedDorsals.length, 0);
    // The counters the pipeline's record step keeps (the event list shows only events with photos).
    await events.addStats(eventId, { totalPhotos: photoCount, processedPhotos: photoCount }, new Date());
    console.log(`seeded ${photoCount} photos, ${bibCount} bibs, ${links} bib links`);
    return { bibs: Array.from({ length: bibCount }, (_, index) => bibOf(index)), ms: performance.now() - started };
  } finally {
    await dynamo.close();
  }
}

interface EndpointLoad {
  name: string;
  /** The screen that calls it, for the table. */
  screen: string;
  path: (request: number) => string;
}

interface Figures {
  p50Ms: number;
  p97_5Ms: number;
  p99Ms: number;
  rps: number;
  errors: number;
  /** The runtime's CPU per answered request: what the load costs the server, whatever else the machine runs. */
  cpuMsPerRequest: number;
}

async function load(url: string, runtimePid: number, endpoint: EndpointLoad, duration: number): Promise<Figures> {
  let requests = 0;
  const cpuBefore = await cpuSecondsOf(runtimePid);
  const result = await autocannon({
    url,
    connections,
    duration,
    timeout: 10,
    requests: [{ method: "GET", setupRequest: (request) => ({ ...request, path: endpoint.path(requests++) }) }],
  });
  return {
    p50Ms: result.latency.p50,
    p97_5Ms: result.latency.p97_5,
    p99Ms: result.latency.p99,
    rps: Math.round(result.requests.average),
    errors: result.non2xx + result.errors + result.timeouts,
    cpuMsPerRequest: Number(
      ((((await cpuSecondsOf(runtimePid)) - cpuBefore) * 1000) / Math.max(1, result.requests.total)).toFixed(2),
    ),
  };
}

/** Loads every endpoint on the runtime of `repoRoot` (this checkout by default), one after the other. */
async function loadAll(dataDir: string, bibs: string[], label: string, repoRoot?: string) {
  const dorsal = await startDorsal({ dataDir, ...(repoRoot ? { repoRoot } : {}) });
  try {
    const bibAt = (request: number) => bibs[(request * 37) % bibs.length] as string;
    const gridPages = Math.ceil(bibs.length / limits.bibGridPageSize);
    const allEndpoints: EndpointLoad[] = [
      {
        name: "search",
        screen: "GET /api/photos/search (purchase screen, any bib)",
        path: (request) => `/api/photos/search?eventId=${eventId}&dorsalNumber=${bibAt(request)}`,
      },
      {
        name: "bibPhotos",
        screen: "GET /api/events/{id}/photos/{bib}/all (search results, first 12)",
        path: (request) =>
          `/api/events/${eventId}/photos/${bibAt(request)}/all?cursor=0&limit=${limits.photosPreviewCount}`,
      },
      {
        name: "bibGrid",
        screen: "GET /api/events/{id}/dorsals/all (bib grid, every page)",
        path: (request) => `/api/events/${eventId}/dorsals/all?page=${(request % gridPages) + 1}`,
      },
      {
        name: "eventsWithPhotos",
        screen: "GET /api/events/all-with-photos (event cards)",
        path: () => "/api/events/all-with-photos",
      },
      { name: "events", screen: "GET /api/events (event picker)", path: () => "/api/events" },
    ];
    const endpoints = onlyEndpoints
      ? onlyEndpoints.flatMap((name) => allEndpoints.filter((endpoint) => endpoint.name === name))
      : allEndpoints;
    if (endpoints.length === 0) throw new Error(`--endpoints names none of ${allEndpoints.map((e) => e.name)}`);
    // Every endpoint answers before any load: a broken route must not pass as a fast one.
    for (const endpoint of endpoints) {
      const answer = await fetch(`${dorsal.url}${endpoint.path(0)}`);
      if (answer.status !== 200) throw new Error(`${endpoint.name} answered ${answer.status}: ${await answer.text()}`);
    }
    // A second of load each, not counted: the first requests of a fresh runtime compile its code.
    for (const endpoint of endpoints) await load(dorsal.url, dorsal.pid, endpoint, 1);
    const figures: Record<string, Figures> = {};
    for (const endpoint of endpoints) {
      const f = await load(dorsal.url, dorsal.pid, endpoint, seconds);
      figures[endpoint.name] = f;
      console.log(
        `${label.padEnd(9)} ${endpoint.name.padEnd(17)} p50 ${String(f.p50Ms).padStart(5)} ms  ` +
          `p97.5 ${String(f.p97_5Ms).padStart(5)} ms  p99 ${String(f.p99Ms).padStart(5)} ms  ` +
          `${String(f.rps).padStart(5)} req/s  ${String(f.cpuMsPerRequest).padStart(5)} CPU ms/req  ${f.errors} errors   ${endpoint.screen}`,
      );
    }
    return figures;
  } finally {
    await dorsal.stop();
  }
}

const dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-bench-search-"));
try {
  const seeded = await seed(dataDir);
  console.log(`seeding: ${(seeded.ms / 1000).toFixed(1)} s`);
  const baseline = values.baseline
    ? await loadAll(dataDir, seeded.bibs, "baseline", path.resolve(values.baseline))
    : undefined;
  const figures = await loadAll(dataDir, seeded.bibs, "this");
  console.log(
    `${photoCount} photos, ${bibCount} bibs; ${connections} connections × ${seconds} s per endpoint; seeding ${(seeded.ms / 1000).toFixed(1)} s`,
  );
  if (baseline) console.log(`baseline (${values.baseline}): ${JSON.stringify(baseline)}`);
  console.log(JSON.stringify(figures));
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
