/**
 * Sign-in load benchmark: how much a crowd of sign-ins slows everyone else down. Each sign-in pays
 * for one scrypt hash (~32 MiB, ~60 ms) on purpose; that work must not hold up the table and
 * storage reads the other requests wait for.
 *
 *   npm run bench:login -- [--searches 60] [--rate 4] [--sign-ins 40]
 *
 * Starts the embedded runtime as `npm start` does, creates one event, then:
 * 1. alone: `--searches` bib searches in that event (public, reading the table), started at a
 *    steady `--rate` per second whether or not the earlier ones have been answered (as visitors
 *    arrive; waiting for each answer would hide how long the later ones queue) → p50/p95 ms;
 * 2. under sign-ins: the same searches while `--sign-ins` sign-ins with wrong passwords are in
 *    flight the whole time (each one answered is replaced at once; every one uses a new unknown
 *    email, so the throttle never locks one and each pays its hash) → p50/p95 ms and the ratios to
 *    phase 1; also the sign-ins' own p50/p95 ms, queueing for their hash included.
 * The last line is one JSON object.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import type { EventDto } from "@dorsal/shared";
import { adminToken, apiClient } from "../support/api";
import { startDorsal } from "../support/server";
import { percentile } from "./bibs/score";

const { values } = parseArgs({
  options: {
    searches: { type: "string", default: "60" },
    rate: { type: "string", default: "4" },
    "sign-ins": { type: "string", default: "40" },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log("npm run bench:login -- [--searches 60] [--rate 4] [--sign-ins 40]");
  process.exit(0);
}
const searchCount = Number(values.searches);
const searchesPerSecond = Number(values.rate);
const signInCount = Number(values["sign-ins"]);
const round = (value: number, digits = 1) => Number(value.toFixed(digits));
const summary = (latencies: number[]) => ({
  p50Ms: round(percentile(latencies, 50)),
  p95Ms: round(percentile(latencies, 95)),
});

const dorsal = await startDorsal();
try {
  const admin = apiClient(dorsal.url, await adminToken(dorsal));
  const anyone = apiClient(dorsal.url);
  const event = (await admin.post<EventDto>("/api/events", { name: "Carrera de Claves", date: "2026-12-06" })).body;
  const search = `/api/photos/search?eventId=${event.id}&dorsalNumber=1234`;

  const searchLatencies = (count: number): Promise<number[]> =>
    Promise.all(
      Array.from({ length: count }, async (_, i) => {
        await sleep((i * 1000) / searchesPerSecond);
        const started = performance.now();
        const { status } = await anyone.get(search);
        if (status !== 200) throw new Error(`search answered ${status}`);
        return performance.now() - started;
      }),
    );

  await searchLatencies(10);
  const alone = summary(await searchLatencies(searchCount));
  console.log(`search alone: p50 ${alone.p50Ms} ms, p95 ${alone.p95Ms} ms`);

  let signingIn = true;
  let attempts = 0;
  const signInLatencies: number[] = [];
  const answers = new Map<number, number>();
  const keepSigningIn = async () => {
    while (signingIn) {
      attempts += 1;
      const started = performance.now();
      const { status } = await anyone.post("/api/auth/login", {
        email: `nadie-${attempts}@dorsal.test`,
        password: "clave-equivocada",
      });
      signInLatencies.push(performance.now() - started);
      answers.set(status, (answers.get(status) ?? 0) + 1);
    }
  };
  const crowd = Array.from({ length: signInCount }, keepSigningIn);
  const loaded = summary(await searchLatencies(searchCount));
  signingIn = false;
  await Promise.all(crowd);
  console.log(`search during ${signInCount} parallel sign-ins: p50 ${loaded.p50Ms} ms, p95 ${loaded.p95Ms} ms`);

  const signIn = summary(signInLatencies);
  const signInAnswers = Object.fromEntries([...answers].sort(([a], [b]) => a - b));
  console.log(
    `sign-ins: p50 ${signIn.p50Ms} ms, p95 ${signIn.p95Ms} ms; answers by status ${JSON.stringify(signInAnswers)}`,
  );
  console.log(
    JSON.stringify({
      searches: searchCount,
      searchesPerSecond,
      parallelSignIns: signInCount,
      alone,
      underSignIns: loaded,
      ratioP50: round(loaded.p50Ms / alone.p50Ms),
      ratioP95: round(loaded.p95Ms / alone.p95Ms),
      signIn,
      signInAnswers,
    }),
  );
} finally {
  await dorsal.stop();
}
