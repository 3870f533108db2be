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
 * 2. Starts the embedded runtime on that data dir as `npm start` does (tests/support/server.ts): a
 *    fresh one for each endpoint that reads one bib, so none finds what another read or signed, and
 *    one for the bib grid and the event lists, the same answer for everyone.
 * 3. Where the endpoint reads one bib (search, a bib's photos): every bib's first look, 10 at a
 *    time, the first half warming the fresh process and the second half measured (CPU per request,
 *    p97.5), as race day meets them — each athlete looks for their own bib.
 * 4. Loads the endpoint with autocannon (--connections for --seconds, after one uncounted second),
 *    bibs and pages rotating on every request: repeat looks.
 * 5. Sizes the route throttles: each route's ceiling (functions/src/http/abuse-limits.ts) times what
 *    a crowd's request of it costs here, against `readCeilingCores`.
 *
 * With --baseline, a checkout of another commit (e.g. a clone of main with its own `npm ci`) is
 * loaded the same way on the same seeded data in the same run, before this one, for a side-by-side.
 *
 * Prints a table, the seeding time, the throttle sizing, and as the LAST line one JSON object:
 * { "<endpoint>": { "p50Ms", "p97_5Ms", "p99Ms", "rps", "errors", "cpuMsPerRequest",
 *   "firstLookCpuMs"?, "firstLookP97_5Ms"?, "throttle": { "rate", "burst", "cpuMs", "coresAtCeiling",
 *   "withinBudget", "budgetRate", … } }, ... } where errors = non-2xx answers + socket errors + timeouts.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { limits } from "@dorsal/shared";
import autocannon from "autocannon";
import { createEventRepository } from "../../functions/src/data/events";
import { readCeilingCores, routeThrottles, stageThrottle } from "../../functions/src/http/abuse-limits";
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
  /** Its API Gateway route key, which names its throttle. */
  route: string;
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
  /** For a bib's reads: the same for the bib's first look (nothing read or signed yet for it)… */
  firstLookCpuMs?: number;
  /** …and its latency, `firstLookWidth` athletes at a time. */
  firstLookP97_5Ms?: number;
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

/**
 * Each bib's first look, `firstLookWidth` at a time, as a race-day crowd meets them: nothing read or
 * signed yet for that bib. The first half of the bibs warms the fresh runtime's code and is not
 * counted; what the runtime spends on the second half, per request, is what sizes the route
 * throttles (functions/src/http/abuse-limits.ts).
 */
async function firstLooks(url: string, runtimePid: number, endpoint: EndpointLoad, bibs: number) {
  const crowd = async (from: number, to: number) => {
    const latencies: number[] = [];
    let next = from;
    await Promise.all(
      Array.from({ length: firstLookWidth }, async () => {
        while (next < to) {
          const started = performance.now();
          const answer = await fetch(`${url}${endpoint.path(next++)}`);
          await answer.arrayBuffer();
          if (answer.status !== 200) throw new Error(`${endpoint.name} answered ${answer.status} on a first look`);
          latencies.push(performance.now() - started);
        }
      }),
    );
    return latencies.sort((a, b) => a - b);
  };
  const half = Math.floor(bibs / 2);
  await crowd(0, half);
  const cpuBefore = await cpuSecondsOf(runtimePid);
  const latencies = await crowd(half, bibs);
  const counted = bibs - half;
  return {
    requests: counted,
    cpuMs: Number(((((await cpuSecondsOf(runtimePid)) - cpuBefore) * 1000) / counted).toFixed(2)),
    p97_5Ms: Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.975))] ?? 0),
  };
}

/** Crowd size of the first looks: enough to keep the runtime busy, few enough that they stay first looks. */
const firstLookWidth = 10;

/**
 * Loads every endpoint on the runtime of `repoRoot` (this checkout by default), started on the
 * seeded data: first each bib once (first looks) where the endpoint reads a bib, then the load.
 */
async function loadAll(dataDir: string, bibs: string[], label: string, repoRoot?: string) {
  const bibAt = (request: number) => bibs[(request * 37) % bibs.length] as string;
  const gridPages = Math.ceil(bibs.length / limits.bibGridPageSize);
  // Only a bib's own reads have first looks that matter: the grid and the lists are the same answer
  // for everyone, read once and then kept.
  const allEndpoints: (EndpointLoad & { perBib: boolean })[] = [
    {
      name: "search",
      screen: "GET /api/photos/search (purchase screen, any bib)",
      route: "GET /api/photos/search",
      perBib: true,
      path: (request) => `/api/photos/search?eventId=${eventId}&dorsalNumber=${bibAt(request)}`,
    },
    {
      name: "bibPhotos",
      screen: "GET /api/events/{id}/photos/{bib}/all (search results, first 12)",
      route: "GET /api/events/{id}/photos/{dorsal}/all",
      perBib: true,
      path: (request) =>
        `/api/events/${eventId}/photos/${bibAt(request)}/all?cursor=0&limit=${limits.photosPreviewCount}`,
    },
    {
      name: "bibGrid",
      screen: "GET /api/events/{id}/dorsals/all (bib grid, every page)",
      route: "GET /api/events/{id}/dorsals/all",
      perBib: false,
      path: (request) => `/api/events/${eventId}/dorsals/all?page=${(request % gridPages) + 1}`,
    },
    {
      name: "eventsWithPhotos",
      screen: "GET /api/events/all-with-photos (event cards)",
      route: "GET /api/events/all-with-photos",
      perBib: false,
      path: () => "/api/events/all-with-photos",
    },
    {
      name: "events",
      screen: "GET /api/events (event picker)",
      route: "GET /api/events",
      perBib: false,
      path: () => "/api/events",
    },
  ];
  const endpoints = onlyEndpoints
    ? onlyEndpoints.flatMap((name) => allEndpoints.filter((endpoint) => endpoint.name === name))
    : allEndpoints;
  if (endpoints.length === 0) throw new Error(`--endpoints names none of ${allEndpoints.map((e) => e.name)}`);
  const figures: Record<string, Figures> = {};
  // A fresh process for each bib's read, whose first looks must find nothing kept; the shared
  // answers (grid, lists) share one.
  const runs = [
    ...endpoints.filter((endpoint) => endpoint.perBib).map((endpoint) => [endpoint]),
    endpoints.filter((endpoint) => !endpoint.perBib),
  ].filter((run) => run.length > 0);
  for (const run of runs) {
    const dorsal = await startDorsal({ dataDir, ...(repoRoot ? { repoRoot } : {}) });
    try {
      for (const endpoint of run) {
        // An endpoint's answer must be there before any load: a broken route must not pass as a fast one.
        const answer = await fetch(`${dorsal.url}${endpoint.path(0)}`);
        if (answer.status !== 200)
          throw new Error(`${endpoint.name} answered ${answer.status}: ${await answer.text()}`);
        const first = endpoint.perBib ? await firstLooks(dorsal.url, dorsal.pid, endpoint, bibs.length) : undefined;
        // A second of load, not counted: the first requests of a fresh runtime compile its code.
        await load(dorsal.url, dorsal.pid, endpoint, 1);
        const loaded = await load(dorsal.url, dorsal.pid, endpoint, seconds);
        const f = { ...loaded, ...(first ? { firstLookCpuMs: first.cpuMs, firstLookP97_5Ms: first.p97_5Ms } : {}) };
        figures[endpoint.name] = f;
        console.log(
          `${label.padEnd(9)} ${endpoint.name.padEnd(17)} p50 ${String(f.p50Ms).padStart(5)} ms  ` +
            `p97.5 ${String(f.p97_5Ms).padStart(5)} ms  p99 ${String(f.p99Ms).padStart(5)} ms  ` +
            `${String(f.rps).padStart(5)} req/s  ${String(f.cpuMsPerRequest).padStart(5)} CPU ms/req  ` +
            `${first ? `first looks ${String(first.cpuMs).padStart(5)} CPU ms/req, p97.5 ${first.p97_5Ms} ms (${first.requests}, ${firstLookWidth} at a time)  ` : ""}${f.errors} errors   ${endpoint.screen}`,
        );
      }
    } finally {
      await dorsal.stop();
    }
  }
  return { figures, endpoints };
}

/**
 * What each route's throttle lets a crowd cost this machine: its ceiling (abuse-limits.ts) times what
 * a first look cost here, in cores. Within `readCeilingCores` the pipeline keeps the rest of the
 * machine however hard athletes search.
 */
function throttleSizing(figures: Record<string, Figures>, endpoints: { name: string; route: string }[]) {
  return endpoints.flatMap((endpoint) => {
    const measured = figures[endpoint.name];
    if (!measured) return [];
    const throttle = routeThrottles[endpoint.route] ?? stageThrottle;
    // A crowd's requests of a bib's reads are first looks; of the grid and the lists, repeats.
    const cpuMs = measured.firstLookCpuMs ?? measured.cpuMsPerRequest;
    const coresAtCeiling = Number(((throttle.rate * cpuMs) / 1000).toFixed(3));
    return [
      {
        name: endpoint.name,
        route: endpoint.route,
        rate: throttle.rate,
        burst: throttle.burst,
        cpuMs,
        coresAtCeiling,
        withinBudget: coresAtCeiling <= readCeilingCores,
        /** The highest ceiling the budget allows at this cost (requests per second). */
        budgetRate: Math.floor((readCeilingCores * 1000) / Math.max(0.01, cpuMs)),
      },
    ];
  });
}

const dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-bench-search-"));
try {
  const seeded = await seed(dataDir);
  console.log(`seeding: ${(seeded.ms / 1000).toFixed(1)} s`);
  const baseline = texts.baseline
    ? await loadAll(dataDir, seeded.bibs, "baseline", path.resolve(texts.baseline))
    : undefined;
  const { figures, endpoints } = await loadAll(dataDir, seeded.bibs, "this");
  console.log(
    `${photoCount} photos, ${bibCount} bibs; ${connections} connections × ${seconds} s per endpoint; seeding ${(seeded.ms / 1000).toFixed(1)} s`,
  );
  const sizing = throttleSizing(figures, endpoints);
  console.log(
    `\nthrottle sizing: a route's ceiling × what a crowd's request costs here (a bib's first look; a repeat for the grid and the lists), against ${readCeilingCores} core each:`,
  );
  for (const row of sizing) {
    console.log(
      `  ${row.route.padEnd(42)} ${String(row.rate).padStart(4)}/s (burst ${row.burst})  × ${String(row.cpuMs).padStart(5)} ms = ` +
        `${row.coresAtCeiling.toFixed(2)} core  ${row.withinBudget ? "within" : "OVER"} the budget (which allows ${row.budgetRate}/s)`,
    );
  }
  if (baseline) console.log(`baseline (${texts.baseline}): ${JSON.stringify(baseline.figures)}`);
  console.log(
    JSON.stringify(
      Object.fromEntries(
        Object.entries(figures).map(([name, f]) => [name, { ...f, throttle: sizing.find((row) => row.name === name) }]),
      ),
    ),
  );
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
