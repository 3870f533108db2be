import type { BibRuleConfig } from "@dorsal/shared";
import type { PhotoRun } from "./run";
import { addScore, emptyTotals, rates, scorePhoto, type Totals } from "./score";

/**
 * The rule parameters whose defaults were chosen on photos (docs/recognition.md) and the values
 * tried for each. Digit counts, leading zeros and the bib pattern are event knowledge, set per event,
 * so they are not tuned here.
 */
export const TUNED_VALUES = {
  ocrConfidenceThreshold: [80, 85, 90, 95],
  dorsalSizeThreshold: [0, 0.1, 0.15, 0.2],
  requireWearer: [true, false],
  minDigits: [1, 2],
} as const satisfies { [K in keyof BibRuleConfig]?: readonly BibRuleConfig[K][] };

export type Tuning = { -readonly [K in keyof typeof TUNED_VALUES]: (typeof TUNED_VALUES)[K][number] };

export interface TunableSet {
  name: string;
  photos: readonly PhotoRun[];
  /** The set's own rules (defaults + its event.json). */
  rules: BibRuleConfig;
  /** Fields its event.json set: the event's knowledge wins over any tuned value. */
  configured: ReadonlySet<string>;
}

/** Every combination of the tuned values. */
export function tuningGrid(): Tuning[] {
  let grid: Partial<Tuning>[] = [{}];
  for (const [field, values] of Object.entries(TUNED_VALUES)) {
    grid = grid.flatMap((partial) => values.map((value) => ({ ...partial, [field]: value })));
  }
  return grid as Tuning[];
}

export function rulesWith(set: TunableSet, tuning: Partial<Tuning>): BibRuleConfig {
  const applied = Object.fromEntries(Object.entries(tuning).filter(([field]) => !set.configured.has(field)));
  return { ...set.rules, ...applied };
}

export function scoreSet(set: TunableSet, rules: BibRuleConfig): Totals {
  let totals = emptyTotals();
  for (const photo of set.photos) totals = addScore(totals, scorePhoto(photo.predict(rules), photo.truth));
  return totals;
}

function pooledF1(sets: readonly TunableSet[], tuning: Tuning): number {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const set of sets) {
    const totals = scoreSet(set, rulesWith(set, tuning));
    tp += totals.truePositives;
    fp += totals.falsePositives;
    fn += totals.falseNegatives;
  }
  return rates({ photos: 0, truePositives: tp, falsePositives: fp, falseNegatives: fn }).f1;
}

export interface HeldOut {
  set: string;
  /** The values that scored best on all the other sets pooled. */
  chosen: Tuning;
  heldOut: Totals;
  withDefaults: Totals;
}

/**
 * For each set: the tuned values that maximise pooled F1 on the OTHER sets, scored on this one. Ties
 * go to the first combination in grid order, so the choice never peeks at the held-out set.
 */
export function leaveOneSetOut(sets: readonly TunableSet[]): HeldOut[] {
  const grid = tuningGrid();
  return sets.map((held) => {
    const others = sets.filter((set) => set !== held);
    let chosen = grid[0] as Tuning;
    let best = -1;
    for (const tuning of grid) {
      const f1 = pooledF1(others, tuning);
      if (f1 > best) {
        best = f1;
        chosen = tuning;
      }
    }
    return {
      set: held.name,
      chosen,
      heldOut: scoreSet(held, rulesWith(held, chosen)),
      withDefaults: scoreSet(held, held.rules),
    };
  });
}
