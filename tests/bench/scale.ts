/**
 * A 100,000-photo event, measured (issue 24 item 1): do the admin's and the athlete's reads hold
 * when an event is big, and does the counter recount finish?
 *
 *   npm run bench:scale -- [--photos 100000] [--bibs 20000] [--sales 2000] [--users 20000]
 *                          [--small-photos 1000] [--requests 40] [--concurrency 4] [--repo DIR]
 *
 * 1. Seeds two tables, each with one event of the same shape (tests/bench/seed-event.ts: the
 *    project's own repositories, no pipeline): a big one of --photos photos, and a small one of
 *    --small-photos, with bibs, sales and athlete accounts scaled down by the same factor. One photo
 *    in 20 has no bib, one in 200 failed; every fourth shows two bibs. Sales are paid through the
 *    sales repository's own writes, spread over the 180 days before now.
 * 2. Starts the runtime on each table (tests/support/server.ts, as `npm start`) and times every
 *    read the screens make: --requests one after the other, then the same again from
 *    --concurrency clients at once (each endpoint stops early after 20 s, with at least 5). The
 *    first request of each is reported on its own: it meets the read cache empty.
 * 3. Before the runtime starts, times the counter recount with the bib links (`recountEventStats`),
 *    called in this process on the same table.
 * 4. Last, deletes the event as the admin does and times its background deletion to the end,
 *    following its progress as the events screen does.
 *
 * With --repo, the runtime and the recount are another checkout's (e.g. a copy of an older
 * commit), for before/after on the same seeding code.
 *
 * Prints the seeding time, a table, and as the LAST line one JSON object with every figure:
 * { shape, seedingSeconds, startupMs, endpoints: { <name>: { small, big, ratioP95 } }, recount, deletion }.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type EventDeletionDto, limits } from "@dorsal/shared";
import { systemClock } from "../../functions/src/adapters/system/system";
import { recountEventStats } from "../../functions/src/app/processing";
import { createBibLinkRepository } from "../../functions/src/data/bib-links";
import { createEventRepository } from "../../functions/src/data/events";
import { createParticipantRepository } from "../../functions/src/data/participants";
import { createPhotoRepository } from "../../functions/src/data/photos";
import { adminToken, apiClient } from "../support/api";
import { activeEvent } from "../support/in-process";
import { startDorsal } from "../support/server";
import { benchOptions } from "./options";
import { benchBibOf, seedEventPhotos, seedSales, seedUsers, withBenchTable } from "./seed-event";

const { counts, texts } = benchOptions(
  "bench:scale",
  { photos: 100_000, bibs: 20_000, sales: 2000, users: 20_000, "small-photos": 1000, requests: 40, concurrency: 4 },
  { repo: "DIR" },
);
const {
  photos: photoCount,
  bibs: bibCount,
  sales: saleCount,
  users: userCount,
  "small-photos": smallPhotos,
  requests: requestCount,
  concurrency,
} = counts;
if (bibCount > photoCount || smallPhotos > photoCount)
  throw new Error("--bibs and --small-photos are at most --photos");
const repoRoot = texts.repo ? path.resolve(texts.repo) : undefined;

const eventId = 1;
/** Each endpoint's timing stops after this long (with at least `minimumRequests`), so a slow read cannot stall the run. */
const endpointBudgetMs = 20_000;
const minimumRequests = 5;

interface Shape {
  label: "small" | "big";
  photos: number;
  bibs: number;
  sales: number;
  users: number;
}

const scaled = (count: number, factor: number) => Math.max(1, Math.round(count * factor));
const shapes: Shape[] = [
  {
    label: "small",
    photos: smallPhotos,
    bibs: scaled(bibCount, smallPhotos / photoCount),
    sales: scaled(saleCount, smallPhotos / photoCount),
    users: scaled(userCount, smallPhotos / photoCount),
  },
  { label: "big", photos: photoCount, bibs: bibCount, sales: saleCount, users: userCount },
];

async function seed(dataDir: string, shape: Shape): Promise<number> {
  const started = performance.now();
  await withBenchTable(dataDir, async (table) => {
    const events = createEventRepository(table);
    const id = await events.nextId();
    if (id !== eventId) throw new Error(`expected a fresh table (event id ${id})`);
    await events.create(activeEvent(eventId, `Maratón de ${shape.photos} fotos`));
    const seeded = await seedEventPhotos(table, {
      eventId,
      photos: shape.photos,
      bibs: shape.bibs,
      unbibbedEvery: 20,
      failedEvery: 200,
      text: false,
      // Processed today, so "today" and the 24 h range have photos to count.
      raceStart: new Date(Date.now() - shape.photos * 1500 - 60_000),
    });
    // The counters the pipeline's record step keeps: every photo counted, the failed ones apart.
    await events.addStats(
      eventId,
      {
        totalPhotos: shape.photos,
        processedPhotos: shape.photos - seeded.failed,
        failedPhotos: seeded.failed,
      },
      new Date(),
    );
    // The per-minute counters behind "processed today" and the analytics' rate: one minute's worth.
    await events.countProcessed(eventId, new Date());
    await seedSales(table, eventId, shape.sales, shape.bibs);
    await seedUsers(table, shape.users);
    console.log(
      `${shape.label}: ${shape.photos} photos (${seeded.unbibbed} without bib, ${seeded.failed} failed), ` +
        `${shape.bibs} bibs, ${seeded.links} bib links, ${shape.sales} paid sales, ${shape.users} athletes`,
    );
  });
  return performance.now() - started;
}

interface Timing {
  firstMs: number;
  sequential: { p50Ms: number; p95Ms: number; requests: number };
  concurrent: { p50Ms: number; p95Ms: number; requests: number };
}

interface Endpoint {
  name: string;
  /** The path of the `request`-th call (bibs and pages rotate). */
  path: (request: number) => string;
  admin: boolean;
}

function endpointsOf(shape: Shape): Endpoint[] {
  const bibAt = (request: number) => benchBibOf((request * 37) % shape.bibs);
  const gridPages = Math.ceil(shape.bibs / limits.bibGridPageSize);
  const analytics = (range: string, scope: string) => ({
    name: `analytics ${range}${scope ? " event" : ""}`,
    path: () => `/api/analytics?range=${range}${scope}`,
    admin: true,
  });
  return [
    {
      name: "search",
      path: (request) => `/api/photos/search?eventId=${eventId}&dorsalNumber=${bibAt(request)}`,
      admin: false,
    },
    {
      name: "bib photos",
      path: (request) =>
        `/api/events/${eventId}/photos/${bibAt(request)}/all?cursor=0&limit=${limits.photosPreviewCount}`,
      admin: false,
    },
    {
      name: "bib grid",
      path: (request) => `/api/events/${eventId}/dorsals/all?page=${(request % gridPages) + 1}`,
      admin: false,
    },
    ...["24h", "7d", "30d"].flatMap((range) => [analytics(range, ""), analytics(range, `&eventId=${eventId}`)]),
    { name: "dashboard", path: () => "/api/dashboard/stats", admin: true },
    { name: "failed list", path: () => `/api/admin/failed-photos?eventId=${eventId}&limit=25`, admin: true },
    { name: "users list", path: () => "/api/users", admin: true },
  ];
}

const percentile = (sorted: number[], p: number) =>
  Number((sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0).toFixed(1));
const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95), requests: times.length };
};

async function timeEndpoint(url: string, token: string, endpoint: Endpoint): Promise<Timing> {
  let request = 0;
  const once = async () => {
    const started = performance.now();
    const answer = await fetch(`${url}${endpoint.path(request++)}`, {
      headers: endpoint.admin ? { authorization: `Bearer ${token}` } : {},
    });
    const body = await answer.text();
    // A broken route must not pass as a fast one.
    if (answer.status !== 200) throw new Error(`${endpoint.name} answered ${answer.status}: ${body.slice(0, 300)}`);
    return performance.now() - started;
  };
  const firstMs = Number((await once()).toFixed(1));
  const run = async (clients: number) => {
    const times: number[] = [];
    const deadline = performance.now() + endpointBudgetMs;
    let started = 0;
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (started < requestCount && (started < minimumRequests || performance.now() < deadline)) {
          started++;
          times.push(await once());
        }
      }),
    );
    return summary(times);
  };
  return { firstMs, sequential: await run(1), concurrent: await run(concurrency) };
}

/** The recount with bib links, in this process, on the table the runtime has let go. */
async function timeRecount(dataDir: string): Promise<number> {
  return withBenchTable(dataDir, async (table) => {
    const deps = {
      events: createEventRepository(table),
      photos: createPhotoRepository(table),
      participants: createParticipantRepository(table),
      bibLinks: createBibLinkRepository(table),
      clock: systemClock,
    };
    const started = performance.now();
    await recountEventStats(deps, eventId, { links: true });
    return Number((performance.now() - started).toFixed(0));
  });
}

interface DeletionTiming {
  ms: number;
  /** How many times the screen's poll saw the progress move before the end. */
  progressSteps: number;
  deleted: EventDeletionDto["deleted"];
}

/** Deletes the event with the admin's password and follows its deletion to the end, as the events screen does. */
async function timeDeletion(dorsal: { url: string; adminPassword: string }, token: string): Promise<DeletionTiming> {
  const admin = apiClient(dorsal.url, token);
  const started = performance.now();
  const accepted = await admin.request("DELETE", `/api/events/${eventId}`, { adminPassword: dorsal.adminPassword });
  if (accepted.status !== 202) throw new Error(`the deletion answered ${accepted.status}`);
  const seen = new Set<number>();
  for (;;) {
    const deletions = await admin.get<EventDeletionDto[]>("/api/event-deletions");
    const deletion = deletions.body.find((candidate) => candidate.eventId === eventId);
    if (!deletion) throw new Error("the deletion is not listed");
    if (deletion.status === "done") {
      return {
        ms: Number((performance.now() - started).toFixed(0)),
        progressSteps: seen.size,
        deleted: deletion.deleted,
      };
    }
    seen.add(deletion.progress);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

const results: Record<
  string,
  { timings: Record<string, Timing>; startupMs: number; recountMs: number; deletion: DeletionTiming }
> = {};
let seedingMs = 0;
for (const shape of shapes) {
  const dataDir = await mkdtemp(path.join(tmpdir(), `dorsal-bench-scale-${shape.label}-`));
  try {
    seedingMs += await seed(dataDir, shape);
    console.log(`seeding so far: ${(seedingMs / 1000).toFixed(1)} s`);
    const recountMs = await timeRecount(dataDir);
    console.log(`${shape.label.padEnd(5)} recount with links ${recountMs} ms`);
    const starting = performance.now();
    const dorsal = await startDorsal({ dataDir, ...(repoRoot ? { repoRoot } : {}) });
    const startupMs = Number((performance.now() - starting).toFixed(0));
    const timings: Record<string, Timing> = {};
    let deletion: DeletionTiming;
    try {
      const token = await adminToken(dorsal);
      for (const endpoint of endpointsOf(shape)) {
        const timing = await timeEndpoint(dorsal.url, token, endpoint);
        timings[endpoint.name] = timing;
        console.log(
          `${shape.label.padEnd(5)} ${endpoint.name.padEnd(20)} first ${String(timing.firstMs).padStart(7)} ms  ` +
            `p50 ${String(timing.sequential.p50Ms).padStart(7)}  p95 ${String(timing.sequential.p95Ms).padStart(7)}  ` +
            `×${concurrency} p95 ${String(timing.concurrent.p95Ms).padStart(7)} ms`,
        );
      }
      deletion = await timeDeletion(dorsal, token);
    } finally {
      await dorsal.stop();
    }
    console.log(
      `${shape.label.padEnd(5)} start-up ${startupMs} ms, deletion ${deletion.ms} ms ` +
        `(${deletion.deleted.photos} photos, ${deletion.deleted.bibLinks} links; progress seen at ${deletion.progressSteps} points)`,
    );
    results[shape.label] = { timings, startupMs, recountMs, deletion };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

const small = results.small;
const big = results.big;
if (!small || !big) throw new Error("both events are measured");
const ratio = (a: number, b: number) => Number((b / Math.max(a, 0.1)).toFixed(2));
const endpoints = Object.fromEntries(
  Object.keys(big.timings).map((name) => {
    const s = small.timings[name] as Timing;
    const b = big.timings[name] as Timing;
    return [name, { small: s, big: b, ratioP95: ratio(s.sequential.p95Ms, b.sequential.p95Ms) }];
  }),
);
console.log(`\n${smallPhotos} vs ${photoCount} photos (${bibCount} bibs, ${saleCount} sales, ${userCount} athletes)`);
console.log(
  `${"read".padEnd(20)} ${"small p50".padStart(9)} ${"small p95".padStart(9)} ${"big p50".padStart(9)} ${"big p95".padStart(9)} ` +
    `${`big ×${concurrency} p95`.padStart(12)} ${"big first".padStart(10)} ${"p95 ratio".padStart(9)}   (ms)`,
);
for (const [name, figures] of Object.entries(endpoints)) {
  console.log(
    `${name.padEnd(20)} ${String(figures.small.sequential.p50Ms).padStart(9)} ${String(figures.small.sequential.p95Ms).padStart(9)} ` +
      `${String(figures.big.sequential.p50Ms).padStart(9)} ${String(figures.big.sequential.p95Ms).padStart(9)} ` +
      `${String(figures.big.concurrent.p95Ms).padStart(12)} ${String(figures.big.firstMs).padStart(10)} ${String(figures.ratioP95).padStart(9)}`,
  );
}
console.log(
  `${"recount (links)".padEnd(20)} ${String(small.recountMs).padStart(19)} ${String(big.recountMs).padStart(19)} ` +
    `${String(ratio(small.recountMs, big.recountMs)).padStart(33)}`,
);
console.log(
  `${"deletion".padEnd(20)} ${String(small.deletion.ms).padStart(19)} ${String(big.deletion.ms).padStart(19)} ` +
    `${String(ratio(small.deletion.ms, big.deletion.ms)).padStart(33)}`,
);
console.log(
  `${"runtime start-up".padEnd(20)} ${String(small.startupMs).padStart(19)} ${String(big.startupMs).padStart(19)}`,
);
console.log(`seeding: ${(seedingMs / 1000).toFixed(1)} s`);
console.log(
  JSON.stringify({
    shape: {
      photos: photoCount,
      bibs: bibCount,
      sales: saleCount,
      users: userCount,
      smallPhotos,
      requestCount,
      concurrency,
    },
    seedingSeconds: Number((seedingMs / 1000).toFixed(1)),
    startupMs: { small: small.startupMs, big: big.startupMs },
    endpoints,
    recount: { smallMs: small.recountMs, bigMs: big.recountMs, ratio: ratio(small.recountMs, big.recountMs) },
    deletion: { small: small.deletion, big: big.deletion, ratio: ratio(small.deletion.ms, big.deletion.ms) },
  }),
);
