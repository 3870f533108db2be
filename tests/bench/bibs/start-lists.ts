import { type BibRuleConfig, normaliseBib, splitByStartList } from "@dorsal/shared";
import type { PhotoRun } from "./run";
import { addScore, emptyTotals, scorePhoto, type Totals } from "./score";

/** Deterministic, so every run draws the same decoys (mulberry32). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A start list as an organizer would import it: every bib labelled in the set (and its `ignore`
 * lists: they are really there), plus as many numbers nobody in the set wears, each as long as a
 * labelled bib drawn at random, so the list is about twice the field.
 */
export function startListFor(photos: readonly PhotoRun[], seed = 18): Set<string> {
  const worn = new Set(
    photos.flatMap((photo) => [...photo.truth.bibs, ...(photo.truth.ignore ?? [])]).map(normaliseBib),
  );
  const examples = [...worn];
  const random = seededRandom(seed);
  const listed = new Set(worn);
  let wanted = worn.size;
  while (wanted > 0 && examples.length > 0) {
    const like = examples[Math.floor(random() * examples.length)] as string;
    // Same shape as a real bib: letters kept, every digit redrawn, no leading zero.
    const decoy = like.replace(/\d/g, (_, at: number) =>
      String(at === like.search(/\d/) ? 1 + Math.floor(random() * 9) : Math.floor(random() * 10)),
    );
    if (listed.has(decoy)) continue;
    listed.add(decoy);
    wanted--;
  }
  return listed;
}

/** The set scored on what the product would publish with that start list. */
export function scoreWithStartList(photos: readonly PhotoRun[], rules: BibRuleConfig, listed: Set<string>): Totals {
  let totals = emptyTotals();
  for (const photo of photos) {
    const { published } = splitByStartList(photo.predict(rules), listed);
    totals = addScore(totals, scorePhoto(published, photo.truth));
  }
  return totals;
}
