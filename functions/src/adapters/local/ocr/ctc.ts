export interface DecodedText {
  /** One entry per recognised character (a dictionary entry; some are not single UTF-16 units). */
  chars: string[];
  /** The probability of each character, 0..1. */
  confidences: number[];
}

/**
 * Greedy CTC decoding, as PaddleOCR's CTCLabelDecode: the best class per time step, repeats
 * collapsed, then blanks (class 0) dropped. Class i ≥ 1 is `alphabet[i - 1]`.
 */
export function ctcGreedyDecode(
  probs: Float32Array,
  steps: number,
  classes: number,
  alphabet: readonly string[],
): DecodedText {
  const chars: string[] = [];
  const confidences: number[] = [];
  let previous = -1;
  for (let t = 0; t < steps; t++) {
    const row = t * classes;
    let best = 0;
    let bestProb = probs[row] ?? 0;
    for (let c = 1; c < classes; c++) {
      const p = probs[row + c] ?? 0;
      if (p > bestProb) {
        best = c;
        bestProb = p;
      }
    }
    if (best !== 0 && best !== previous) {
      chars.push(alphabet[best - 1] ?? "");
      confidences.push(bestProb);
    }
    previous = best;
  }
  return { chars, confidences };
}

/**
 * `first` confirmed by a second read of the same characters: a character counts as misread only if
 * both reads misread it, as if the two were independent. Reads of overlapping crops share most of
 * their pixels, so this overstates a character hidden in both.
 */
export function confirmedBy(first: DecodedText, second: DecodedText): DecodedText {
  if (second.chars.join("") !== first.chars.join("")) throw new Error("a read confirms only the same characters");
  return {
    chars: first.chars,
    confidences: first.confidences.map((p, i) => 1 - (1 - p) * (1 - (second.confidences[i] ?? 0))),
  };
}

/**
 * PaddleOCR's dictionary file, one character per line, plus the space it appends when
 * `use_space_char` is on (as it is for the PP-OCRv4 models).
 */
export function parseDictionary(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  return [...lines, " "];
}
