/**
 * Race-day load on the athlete's side: every runner looks for their photos at once.
 *
 *   npm run bench:search -- [--photos 5000] [--bibs 1000] [--connections 100] [--seconds 20] [--baseline DIR]
 *                           [--endpoints search,bibPhotos]
 *
 * 1. Seeds one event through the real table before the runtime starts (tests/bench/seed-event.ts):
 *    dynalite on a fresh data dir, written with the project's own repositories, exactly the items
 *    the pipeline leaves behind for a processed photo — no pipeline, no images.
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
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { limits } from "@dorsal/shared";
import autocannon from "autocannon";
import { createEventRepository } from "../../functions/src/data/events";
import { activeEvent } from "../support/in-process";
import { startDorsal } from "../support/server";
import { benchOptions } from "./options";
import { cpuSecondsOf } from "./proc";
import { benchBibOf, seedEventPhotos, withBenchTable } from "./seed-event";

const { counts, texts } = benchOptions(
  "bench:search",
  { photos: 5000, bibs: 1000, connections: 100, seconds: 20 },
  { baseline: "DIR", endpoints: "search,bibPhotos,…" },
);
const { photos: photoCount, bibs: bibCount, connections, seconds } = counts;
if (bibCount > photoCount) throw new Error("--bibs is at most --photos");

/**
 * Loads only these endpoints (by name), in this order, e.g. to profile one. Order matters: the first
 * endpoint meets every bib for the first time (nothing read or signed yet), as race day does.
 */
const onlyEndpoints = texts.endpoints?.split(",");

const eventId = 1;

/** Seeds the event into `dataDir`'s table through the repositories; returns the bibs that have photos. */
async function seed(dataDir: string): Promise<{ bibs: string[]; ms: number }> {
  const started = performance.now();
  await withBenchTable(dataDir, async (table) => {
    const events = createEventRepository(table);
    const id = await events.nextId();
    if (id !== eventId) throw new Error(`expected a fresh table (event id ${id})`);
    await events.create(activeEvent(eventId, "Media Maratón de Carga"));
    const { links } = await seedEventPhotos(table, {
      eventId,
      photos: photoCount,
      bibs: bibCount,
      text: true,
      raceStart: new Date("2026-11-29T07:00:00Z"),
    });
    // The counters the pipeline's record step keeps (the event list shows only events with photos).
    await events.addStats(eventId, { totalPhotos: photoCount, processedPhotos: photoCount }, new Date());
    console.log(`seeded ${photoCount} photos, ${bibCount} bibs, ${links} bib links`);
  });
  return { bibs: Array.from({ length: bibCount }, (_, index) => benchBibOf(index)), ms: performance.now() - started };
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
  const baseline = texts.baseline
    ? await loadAll(dataDir, seeded.bibs, "baseline", path.resolve(texts.baseline))
    : undefined;
  const figures = await loadAll(dataDir, seeded.bibs, "this");
  console.log(
    `${photoCount} photos, ${bibCount} bibs; ${connections} connections × ${seconds} s per endpoint; seeding ${(seeded.ms / 1000).toFixed(1)} s`,
  );
  if (baseline) console.log(`baseline (${texts.baseline}): ${JSON.stringify(baseline)}`);
  console.log(JSON.stringify(figures));
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
