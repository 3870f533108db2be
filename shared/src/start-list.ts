/**
 * Start lists ("lista de inscritos"): the bibs an event actually handed out. A machine read that is
 * not on the list is not published; it is kept as a suggestion with the listed bibs it is one
 * misread away from, for the organizer to confirm. Pure: the benchmark and the server share it.
 */
import { normaliseBib } from "./bib-format";

/** Characters a misread can turn into, or drop in: digits and the letters of letter bibs. */
const bibAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** Shorter bibs first, then in character order: 99 before 100, as a start list is printed. */
const bibOrder = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/**
 * The listed bibs one edit away from `read`: one character changed, missing or extra. Found by
 * trying every such variant against the set, so the cost does not grow with the list's size.
 */
export function nearestListedBibs(read: string, listed: ReadonlySet<string>): string[] {
  const bib = normaliseBib(read);
  const found = new Set<string>();
  const consider = (variant: string) => {
    if (variant !== bib && listed.has(variant)) found.add(variant);
  };
  for (let at = 0; at <= bib.length; at++) {
    const before = bib.slice(0, at);
    const after = bib.slice(at);
    for (const character of bibAlphabet) consider(before + character + after);
    if (at < bib.length) {
      consider(before + after.slice(1));
      for (const character of bibAlphabet) consider(before + character + after.slice(1));
    }
  }
  return [...found].sort(bibOrder);
}

export interface StartListSplit {
  /** Reads on the list: they become the photo's bibs. */
  published: string[];
  /** Reads not on the list, each with the listed bibs it may be a misread of (possibly none). */
  suggestions: { number: string; nearest: string[] }[];
}

/**
 * Which of a photo's reads are published. Without a list (undefined or empty) every read is;
 * with one, only listed reads are, and the others become suggestions.
 */
export function splitByStartList(numbers: readonly string[], listed: ReadonlySet<string> | undefined): StartListSplit {
  if (!listed || listed.size === 0) return { published: [...numbers], suggestions: [] };
  const published: string[] = [];
  const suggestions: StartListSplit["suggestions"] = [];
  for (const number of numbers) {
    if (listed.has(normaliseBib(number))) published.push(number);
    else suggestions.push({ number, nearest: nearestListedBibs(number, listed) });
  }
  return { published, suggestions };
}
