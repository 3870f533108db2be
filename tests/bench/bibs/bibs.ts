/**
 * Bib recognition benchmark over photo sets with ground truth (shared/data/README.md), through the
 * product's own path: the local text and face engines, then the shared bib rules under each set's
 * event settings (its optional event.json).
 *
 *   npm run bench:bibs -- [--data DIR]... [--cache DIR] [--rules JSON] [--ablate] [--workers N]
 *
 * Without --data every set under ../shared/data runs. Each set is reported alone, then a
 * leave-one-set-out table: the tuned rule values (tuning.ts) chosen on the other sets, scored on the
 * held-out one. --cache keeps the engines' raw output per photo, so rule experiments re-run in seconds
 * (timings then come from the run that filled it); --rules overrides BibRuleConfig fields for every
 * set; --ablate adds the effect of switching each rule off. A start list's effect (start-lists.ts) is
 * reported apart. The last line is one JSON object over all sets with their own settings, no lists.
 */
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { BibRuleConfig } from "@dorsal/shared";
import { ABLATIONS, closeEngines, type PhotoRun, runSet } from "./run";
import { addScore, emptyTotals, percentile, rates, scorePhoto, sumTotals, type Totals } from "./score";
import { scoreWithStartList, startListFor } from "./start-lists";
import { leaveOneSetOut, scoreSet, type TunableSet } from "./tuning";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const DATA_ROOT = resolve(ROOT, "../shared/data");

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
      "Without --data: every set (a folder with gt.json) under ../shared/data.",
  );
  process.exit(0);
}

const overrides: Partial<BibRuleConfig> = values.rules ? JSON.parse(values.rules) : {};
const dirs = values.data ?? defaultSets();
if (dirs.length === 0) {
  console.log(`no benchmark sets found under ${DATA_ROOT}; pass --data DIR`);
  process.exit(0);
}

const fmt = (x: number) => x.toFixed(3);
const prf = (totals: Totals) => {
  const { precision, recall, f1 } = rates(totals);
  return `P ${fmt(precision)}  R ${fmt(recall)}  F1 ${fmt(f1)}`;
};
const all: PhotoRun[] = [];
const sets: TunableSet[] = [];
const perSet: Totals[] = [];
let anyCached = false;
for (const dir of dirs) {
  const set = await runSet(dir, {
    cache: values.cache,
    workers: values.workers ? Number(values.workers) : undefined,
  });
  const rules = { ...set.rules, ...overrides };
  let totals = emptyTotals();
  const falsePositives: string[] = [];
  const falseNegatives: string[] = [];
  for (const photo of set.photos) {
    const score = scorePhoto(photo.predict(rules), photo.truth);
    totals = addScore(totals, score);
    for (const bib of score.falsePositives) falsePositives.push(`${photo.path}: ${bib}`);
    for (const bib of score.falseNegatives) falseNegatives.push(`${photo.path}: ${bib}`);
  }
  perSet.push(totals);
  sets.push({ name: set.name, photos: set.photos, rules, configured: set.configured });
  all.push(...set.photos);
  anyCached ||= set.cached;
  const { precision, recall, f1 } = rates(totals);
  const ms = set.photos.map((photo) => photo.ms);
  const partial = set.photos.filter((photo) => photo.truth.partial).length;
  console.log(
    `\n== ${set.name} (${set.dir}): ${totals.photos} photos` +
      (partial > 0 ? ` (${partial} partially labelled)` : "") +
      (set.cached ? ", engine output from cache" : ""),
  );
  console.log(`rules: ${JSON.stringify(rules)}`);
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
      const r = rates(scoreSet(sets.at(-1) as TunableSet, { ...rules, ...off }));
      const d = (x: number, y: number) => `${x - y >= 0 ? "+" : ""}${(x - y).toFixed(3)}`;
      console.log(
        `  ${name.padEnd(22)} P ${fmt(r.precision)} (${d(r.precision, precision)})  R ${fmt(r.recall)} ` +
          `(${d(r.recall, recall)})  F1 ${fmt(r.f1)} (${d(r.f1, f1)})`,
      );
    }
  }
}

if (sets.length > 1) {
  console.log("\n== leave-one-set-out: tuned values chosen on the other sets, scored on the held-out one");
  const table = leaveOneSetOut(sets);
  for (const row of table) {
    const chosen = Object.entries(row.chosen)
      .map(([field, value]) => `${field} ${value}`)
      .join(", ");
    console.log(`${row.set.padEnd(16)} held out: ${prf(row.heldOut)}   with defaults: ${prf(row.withDefaults)}`);
    console.log(`${"".padEnd(16)} chosen on the others: ${chosen}`);
  }
  console.log(
    `all held-out sets pooled: ${prf(sumTotals(table.map((row) => row.heldOut)))}` +
      `   with defaults: ${prf(sumTotals(perSet))}`,
  );
}

console.log(
  "\n== with a start list (every labelled bib plus as many numbers nobody wears): not part of the figures above",
);
const withLists = sets.map((set) => scoreWithStartList(set.photos, set.rules, startListFor(set.photos)));
sets.forEach((set, index) => {
  console.log(`${set.name.padEnd(16)} ${prf(withLists[index] as Totals)}   without: ${prf(perSet[index] as Totals)}`);
});
console.log(`all sets pooled: ${prf(sumTotals(withLists))}   without: ${prf(sumTotals(perSet))}`);

if (anyCached)
  console.log("\nengine output came from --cache: peak RSS below is the scoring process's, not the engines'");
const { precision, recall, f1 } = rates(sumTotals(perSet));
const ms = all.map((photo) => photo.ms);
const round = (x: number) => Math.round(x * 1000) / 1000;
console.log(
  JSON.stringify({
    photos: all.length,
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

function defaultSets(): string[] {
  if (!existsSync(DATA_ROOT)) return [];
  return readdirSync(DATA_ROOT, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(DATA_ROOT, entry.name, "gt.json")))
    .map((entry) => join(DATA_ROOT, entry.name))
    .sort();
}
