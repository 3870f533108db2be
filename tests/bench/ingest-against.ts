/**
 * `bench:ingest` for this checkout and a baseline commit, side by side in one run: the ratio of
 * their photos per minute is the figure that holds from one machine or day to the next (machines
 * differ by 2–3×, so an absolute figure from another run proves nothing).
 *
 *   npm run bench:ingest:against -- [--baseline 49d739d] [--rounds 2] [--photos 40] [--data DIR]
 *
 * The baseline is exported to a temporary directory with its dependencies (`./baseline.ts`). Each
 * round runs both checkouts' own `tests/bench/ingest.ts` one after the other, on photos made the
 * same way from the same sources, with no ZIP phase and no single-photo phase (where the
 * baseline's bench has one: 49d739d's does not), the order swapped every round so the machine's
 * drift falls on both alike. Uncommitted changes of this checkout are part of "current". The last
 * line is one JSON object.
 */
import { spawn } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { currentCheckout, exportBaseline } from "./baseline";
import { benchOptions } from "./options";

const root = path.resolve(import.meta.dirname, "../..");
const defaults = { baseline: "49d739d", data: path.resolve(root, "../shared/data") };
const { counts, texts } = benchOptions("bench:ingest:against", { rounds: 2, photos: 40 }, defaults);
const baselineRef = texts.baseline ?? defaults.baseline;
const data = texts.data ?? defaults.data;

interface IngestFigures {
  photosPerMinute: number;
  p95UploadToSearchableS: number;
  peakRssMb: number;
  efficiency?: number;
}

/** The baseline, ready to run its own benchmark, and whether that benchmark has a single-photo phase. */
async function preparedBaseline(ref: string) {
  const exported = await exportBaseline(ref);
  const bench = await readFile(path.join(exported.dir, "tests/bench/ingest.ts"), "utf8");
  return { ...exported, knowsSingle: /\bsingle: \{/.test(bench) };
}

/** One checkout's `bench:ingest`, run as its own `npm run` would; its last line, parsed. */
async function ingestIn(dir: string, args: string[]): Promise<IngestFigures> {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/bench/ingest.ts", ...args], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let shown = 0;
  // Shown as it comes, line by line and indented: a run takes minutes.
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    const complete = output.lastIndexOf("\n") + 1;
    if (complete <= shown) return;
    process.stdout.write(output.slice(shown, complete).replace(/^(?=.)/gm, "    "));
    shown = complete;
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  if (code !== 0) throw new Error(`bench:ingest in ${dir} ended with ${code}:\n${output}`);
  return JSON.parse(output.trim().split("\n").at(-1) ?? "") as IngestFigures;
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const round = (value: number, digits = 1) => Number(value.toFixed(digits));

const { commit: current, dirty } = currentCheckout();
console.log(`preparing ${baselineRef} in a temporary directory…`);
const baseline = await preparedBaseline(baselineRef);
try {
  const common = ["--photos", String(counts.photos), "--zip-mb", "0", "--data", data];
  const runs: { baseline: IngestFigures[]; current: IngestFigures[] } = { baseline: [], current: [] };
  for (let roundIndex = 0; roundIndex < counts.rounds; roundIndex++) {
    const order = roundIndex % 2 === 0 ? (["baseline", "current"] as const) : (["current", "baseline"] as const);
    for (const side of order) {
      const figures =
        side === "baseline"
          ? await ingestIn(baseline.dir, baseline.knowsSingle ? [...common, "--single", "0"] : common)
          : await ingestIn(root, [...common, "--single", "0"]);
      runs[side].push(figures);
      const efficiency = figures.efficiency === undefined ? "" : `, efficiency ${figures.efficiency}`;
      console.log(
        `round ${roundIndex + 1}, ${side} (${side === "baseline" ? baseline.commit : current}): ${figures.photosPerMinute} photos/min, ` +
          `p95 upload→searchable ${figures.p95UploadToSearchableS} s, peak RSS ${figures.peakRssMb} MB${efficiency}`,
      );
    }
  }
  const perMinute = (side: keyof typeof runs) => runs[side].map((figures) => figures.photosPerMinute);
  const ratio = round(mean(perMinute("current")) / mean(perMinute("baseline")), 2);
  console.log(
    `current / ${baseline.commit}: ×${ratio} photos per minute (means of ${counts.rounds} runs each, ${counts.photos} photos of 12 MP)`,
  );
  console.log(
    JSON.stringify({
      photos: counts.photos,
      rounds: counts.rounds,
      baseline: baseline.commit,
      current,
      dirty,
      baselinePhotosPerMinute: perMinute("baseline"),
      currentPhotosPerMinute: perMinute("current"),
      ratio,
      currentEfficiency: runs.current.map((figures) => figures.efficiency ?? null),
    }),
  );
} finally {
  await rm(baseline.dir, { recursive: true, force: true });
}
