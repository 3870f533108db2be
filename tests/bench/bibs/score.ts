/**
 * Scoring exactly as ../shared/data/README.md prescribes; bibs compare as the product stores them
 * (normaliseBib: case-insensitive, leading zeros stripped, as RBNR stored bibs as integers).
 */
import { normaliseBib } from "@dorsal/shared";

export interface Truth {
  bibs: string[];
  /** Bibs really in the photo but never labelled: reading them is neither right nor wrong. */
  ignore?: string[];
  /**
   * The photo shows more bibs than were labelled (crowds, starts): a read matching none of `bibs`
   * counts neither way; every listed bib still counts for recall.
   */
  partial?: boolean;
}

export interface PhotoScore {
  truePositives: string[];
  falsePositives: string[];
  falseNegatives: string[];
}

export interface Totals {
  photos: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
}

export function scorePhoto(predicted: readonly string[], truth: Truth): PhotoScore {
  const expected = new Set(truth.bibs.map(normaliseBib));
  const ignored = new Set((truth.ignore ?? []).map(normaliseBib));
  const read = new Set(
    predicted.map(normaliseBib).filter((bib) => expected.has(bib) || (!truth.partial && !ignored.has(bib))),
  );
  return {
    truePositives: [...read].filter((bib) => expected.has(bib)),
    falsePositives: [...read].filter((bib) => !expected.has(bib)),
    falseNegatives: [...expected].filter((bib) => !read.has(bib)),
  };
}

export const emptyTotals = (): Totals => ({ photos: 0, truePositives: 0, falsePositives: 0, falseNegatives: 0 });

export function addScore(totals: Totals, score: PhotoScore): Totals {
  return {
    photos: totals.photos + 1,
    truePositives: totals.truePositives + score.truePositives.length,
    falsePositives: totals.falsePositives + score.falsePositives.length,
    falseNegatives: totals.falseNegatives + score.falseNegatives.length,
  };
}

export function sumTotals(parts: readonly Totals[]): Totals {
  return parts.reduce(
    (sum, part) => ({
      photos: sum.photos + part.photos,
      truePositives: sum.truePositives + part.truePositives,
      falsePositives: sum.falsePositives + part.falsePositives,
      falseNegatives: sum.falseNegatives + part.falseNegatives,
    }),
    emptyTotals(),
  );
}

/** Micro-averaged; an empty denominator counts as perfect, as nothing was missed or invented. */
export function rates(totals: Totals): { precision: number; recall: number; f1: number } {
  const { truePositives: tp, falsePositives: fp, falseNegatives: fn } = totals;
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

/** Nearest-rank percentile of an unsorted list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}
