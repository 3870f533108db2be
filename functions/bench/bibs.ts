/**
 * Bib recognition benchmark over photo sets with ground truth (shared/data/README.md), through the
 * product's own path: the local text and face engines, then the shared bib rules.
 *
 *   npm run bench:bibs -- [--data DIR]... [--cache DIR] [--rules JSON] [--ablate] [--workers N]
 *
 * --cache keeps the engines' raw output per photo, so rule experiments re-run in seconds (timings
 * then come from the run that filled the cache); --rules overrides BibRuleConfig fields; --ablate
 * adds the effect of switching each rule off. The last line is one JSON object over all sets.
 */
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type BibRuleConfig, defaultBibRules } from "@dorsal/shared";
import { ABLATIONS, closeEngines, type PhotoRun, runSet } from "./run";
import { addScore, emptyTotals, percentile, rates, scorePhoto, type Totals } from "./score";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const DEFAULT_SETS = ["../shared/data/rbnr-dev", "../shared/data/hvv"];

const { values } = parseArgs({
  options: {
    data: { type: "string", multiple: true },
    cache: { type: "string" },
    rules: { type: "string" },
    ablate: { type: "boolean", default: false },
    workers: { type: "string" },
    help: { type: "boolean", default: false },
  },
});

if (values.help) {
  console.log(
    "npm run bench:bibs -- [--data DIR]... [--cache DIR] [--rules JSON] [--ablate] [--workers N]\n" +
      "Without --data: ../shared/data/rbnr-dev and ../shared/data/hvv when present.",
  );
  process.exit(0);
}

const rules: BibRuleConfig = { ...defaultBibRules, ...(values.rules ? JSON.parse(values.rules) : {}) };
let dirs = values.data ?? [];
if (dirs.length === 0) {
  dirs = DEFAULT_SETS.map((dir) => resolve(ROOT, dir)).filter((dir) => {
    const present = existsSync(resolve(dir, "gt.json"));
    if (!present) console.log(`skipping ${dir}: not present`);
    return present;
  });
  if (dirs.length === 0) {
    console.log("no benchmark sets found; pass --data DIR");
    process.exit(0);
  }
}

const fmt = (x: number) => x.toFixed(3);
const all: PhotoRun[] = [];
let overall: Totals = emptyTotals();
let anyCached = false;
console.log(`rules: ${JSON.stringify(rules)}`);
for (const dir of dirs) {
  const set = await runSet(dir, {
    cache: values.cache,
    workers: values.workers ? Number(values.workers) : undefined,
  });
  let totals = emptyTotals();
  const falsePositives: string[] = [];
  const falseNegatives: string[] = [];
  for (const photo of set.photos) {
    const score = scorePhoto(photo.predict(rules), photo.truth);
    totals = addScore(totals, score);
    for (const bib of score.falsePositives) falsePositives.push(`${photo.path}: ${bib}`);
    for (const bib of score.falseNegatives) falseNegatives.push(`${photo.path}: ${bib}`);
  }
  overall = {
    photos: overall.photos + totals.photos,
    truePositives: overall.truePositives + totals.truePositives,
    falsePositives: overall.falsePositives + totals.falsePositives,
    falseNegatives: overall.falseNegatives + totals.falseNegatives,
  };
  all.push(...set.photos);
  anyCached ||= set.cached;
  const { precision, recall, f1 } = rates(totals);
  const ms = set.photos.map((photo) => photo.ms);
  console.log(
    `\n== ${set.name} (${set.dir}): ${totals.photos} photos${set.cached ? ", engine output from cache" : ""}`,
  );
  console.log(
    `precision ${fmt(precision)}  recall ${fmt(recall)}  f1 ${fmt(f1)}  ` +
      `(tp ${totals.truePositives}, fp ${totals.falsePositives}, fn ${totals.falseNegatives})`,
  );
  console.log(
    `ms/photo (text + faces) median ${Math.round(percentile(ms, 50))}  p95 ${Math.round(percentile(ms, 95))}  ` +
      `max ${Math.round(Math.max(...ms))}; text alone median ${Math.round(
        percentile(
          set.photos.map((p) => p.textMs),
          50,
        ),
      )}`,
  );
  console.log(`false positives (${falsePositives.length}): ${falsePositives.join(", ") || "none"}`);
  console.log(`false negatives (${falseNegatives.length}): ${falseNegatives.join(", ") || "none"}`);
  if (values.ablate) {
    console.log("rule switched off → precision / recall / f1 (Δ against all rules on)");
    for (const [name, off] of Object.entries(ABLATIONS)) {
      let t = emptyTotals();
      for (const photo of set.photos) t = addScore(t, scorePhoto(photo.predict({ ...rules, ...off }), photo.truth));
      const r = rates(t);
      const d = (x: number, y: number) => `${x - y >= 0 ? "+" : ""}${(x - y).toFixed(3)}`;
      console.log(
        `  ${name.padEnd(22)} P ${fmt(r.precision)} (${d(r.precision, precision)})  R ${fmt(r.recall)} ` +
          `(${d(r.recall, recall)})  F1 ${fmt(r.f1)} (${d(r.f1, f1)})`,
      );
    }
  }
}

if (anyCached)
  console.log("\nengine output came from --cache: peak RSS below is the scoring process's, not the engines'");
const { precision, recall, f1 } = rates(overall);
const ms = all.map((photo) => photo.ms);
const round = (x: number) => Math.round(x * 1000) / 1000;
console.log(
  JSON.stringify({
    photos: overall.photos,
    precision: round(precision),
    recall: round(recall),
    f1: round(f1),
    msMedian: Math.round(percentile(ms, 50)),
    msP95: Math.round(percentile(ms, 95)),
    // maxRSS is the whole process's high-water mark, worker threads included (KiB).
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
await closeEngines();
