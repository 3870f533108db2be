import type { EventConfigDto, EventRecognitionConfig } from "./api";
import {
  bibExample,
  bibFormatOf,
  describeBibFormat,
  digitCount,
  matchesBibPattern,
  normaliseBib,
  printedBib,
} from "./bib-format";
import { type Box, sideBySide, wearerOf } from "./bib-geometry";
import { defaultEventConfig } from "./constants";

/**
 * Bib extraction rules shared by every text engine: which of the detected words are bib numbers.
 * Input mirrors Rekognition DetectText WORDs and DetectFaces faces (confidence 0..100, boxes
 * normalised 0..1 of the upright photo). Every rule can be switched off through its field, so the
 * benchmark can measure each one (docs/recognition.md).
 */
export interface BibRuleConfig {
  /** Minimum engine confidence, 0..100 (event_configs.ocrConfidenceThreshold). */
  ocrConfidenceThreshold: number;
  /** At most this many bibs per photo, most confident first (event_configs.maxDorsalsPerPhoto). */
  maxDorsalsPerPhoto: number;
  /** When false, only the most confident bib is kept (event_configs.enableMultiDorsalSupport). */
  enableMultiDorsalSupport: boolean;
  /**
   * Minimum digit height as a fraction of the wearer's face height (event_configs.dorsalSizeThreshold);
   * 0 (the default) turns it off. Tuned on rbnr-dev (0.15), it cost recall on every other set
   * (docs/recognition.md), so it is left to events whose bibs are known to be large.
   */
  dorsalSizeThreshold: number;
  /**
   * What a whole read must look like (event_configs.bibPattern, see bib-format.ts), tested
   * case-insensitively on the read trimmed and upper-cased.
   */
  bibPattern: string;
  /** The read's digits (letters aside), leading zeros included. */
  minDigits: number;
  maxDigits: number;
  /**
   * When false, a read starting with 0 is dropped: on bibs that are not zero-padded it is almost always
   * the tail of a bib whose first digit was hidden or cut ("0246" from "10246"). Zero-padded events
   * ("0891") turn it on.
   */
  allowLeadingZeros: boolean;
  /**
   * When faces were detected, a bib must hang below one of them (see bib-geometry.ts): banners,
   * clocks and signs are above or beside people. Photos without a detected face skip this rule.
   */
  requireWearer: boolean;
}

export interface WordCandidate {
  text: string;
  confidence: number;
  box: Box;
}

export interface FaceCandidate {
  box: Box;
}

export interface BibCandidate {
  number: string;
  confidence: number;
  box: WordCandidate["box"];
}

export const defaultBibRules: BibRuleConfig = {
  ocrConfidenceThreshold: defaultEventConfig.ocrConfidenceThreshold,
  maxDorsalsPerPhoto: defaultEventConfig.maxDorsalsPerPhoto,
  enableMultiDorsalSupport: defaultEventConfig.enableMultiDorsalSupport,
  dorsalSizeThreshold: defaultEventConfig.dorsalSizeThreshold,
  bibPattern: defaultEventConfig.bibPattern,
  minDigits: 2,
  maxDigits: 6,
  allowLeadingZeros: false,
  requireWearer: true,
};

/** Why a digit word was not taken as a bib; `undefined` when it was. */
export type BibRejection = "pattern" | "length" | "leading-zero" | "confidence" | "no-wearer" | "too-small";

/**
 * `faces` are the photo's detected faces (DetectFaces or the local detector); pass `[]` when faces
 * were not detected, which switches the wearer and size rules off for that photo.
 */
export function extractBibs(
  words: readonly WordCandidate[],
  rules: BibRuleConfig,
  faces: readonly FaceCandidate[] = [],
): BibCandidate[] {
  const best = new Map<string, BibCandidate>();
  for (const word of [...words, ...lettersJoined(words)]) {
    if (judgeWord(word, rules, faces)) continue;
    // Leading zeros and case are print style, not identity: "0891" and "891" are one runner.
    const number = normaliseBib(word.text);
    const seen = best.get(number);
    if (!seen || seen.confidence < word.confidence)
      best.set(number, { number, confidence: word.confidence, box: word.box });
  }
  const ranked = [...best.values()].sort((a, b) => b.confidence - a.confidence);
  return ranked.slice(0, rules.enableMultiDorsalSupport ? rules.maxDorsalsPerPhoto : 1);
}

/**
 * A letter printed apart from the number ("M  10380") reaches the rules as two detections, the
 * number and the letter, which neither engine joins when the gap is wide. So each letter (one to
 * three) standing beside a number, level with it and about as tall, is also read joined to it, on
 * the side it stands (M10380, 10380M), at the lower of the two confidences. Only a letter and a
 * number are joined, never two numbers, so a digits-only event is unaffected.
 */
function lettersJoined(words: readonly WordCandidate[]): WordCandidate[] {
  const printed = words.map((word) => ({ word, text: printedBib(word.text) }));
  const letters = printed.filter(({ text }) => /^[A-Z]{1,3}$/.test(text));
  const numbers = printed.filter(({ text }) => /^\d+$/.test(text));
  const joined: WordCandidate[] = [];
  for (const letter of letters) {
    for (const number of numbers) {
      const charWidth = number.word.box.width / number.text.length;
      const before = sideBySide(letter.word.box, number.word.box, charWidth);
      if (!before && !sideBySide(number.word.box, letter.word.box, charWidth)) continue;
      joined.push({
        text: before ? letter.text + number.text : number.text + letter.text,
        confidence: Math.min(letter.word.confidence, number.word.confidence),
        box: union(letter.word.box, number.word.box),
      });
    }
  }
  return joined;
}

function union(a: Box, b: Box): Box {
  const left = Math.min(a.left, b.left);
  const top = Math.min(a.top, b.top);
  return {
    left,
    top,
    width: Math.max(a.left + a.width, b.left + b.width) - left,
    height: Math.max(a.top + a.height, b.top + b.height) - top,
  };
}

/** The first rule a word fails, cheapest first; `undefined` when it is a bib. */
export function judgeWord(
  word: WordCandidate,
  rules: BibRuleConfig,
  faces: readonly FaceCandidate[],
): BibRejection | undefined {
  const text = printedBib(word.text);
  if (!matchesBibPattern(text, rules.bibPattern)) return "pattern";
  const digits = digitCount(text);
  if (digits < rules.minDigits || digits > rules.maxDigits) return "length";
  if (!rules.allowLeadingZeros && text.startsWith("0")) return "leading-zero";
  if (word.confidence < rules.ocrConfidenceThreshold) return "confidence";
  if (faces.length === 0) return undefined;
  const wearers = faces.filter((face) => wearerOf(face.box, word.box));
  if (rules.requireWearer && wearers.length === 0) return "no-wearer";
  // Judged against the largest plausible wearer: the runner nearest the camera owns an ambiguous bib.
  const faceHeight = Math.max(0, ...wearers.map((face) => face.box.height));
  if (faceHeight > 0 && word.box.height < rules.dorsalSizeThreshold * faceHeight) return "too-small";
  return undefined;
}

type BibSettings = Pick<EventConfigDto, "minDigits" | "maxDigits" | "allowLeadingZeros" | "bibPattern">;

export const manualBibMessages = {
  required: "Escribe el número de dorsal",
  digitsOnly: "Los dorsales de este evento solo tienen números",
  length: ({ minDigits, maxDigits }: Pick<EventRecognitionConfig, "minDigits" | "maxDigits">) =>
    minDigits === maxDigits
      ? `Los dorsales de este evento tienen ${minDigits} dígitos`
      : `Los dorsales de este evento tienen de ${minDigits} a ${maxDigits} dígitos`,
  /** For events whose bibs carry letters: one message says the whole format, with an example. */
  format: (config: BibSettings) => {
    const format = bibFormatOf(config.bibPattern, config);
    return format
      ? `Los dorsales de este evento son ${describeBibFormat(format, config)}, p. ej. ${bibExample(format, config)}`
      : `Ese dorsal no sigue el formato personalizado de los dorsales de este evento (${config.bibPattern})`;
  },
} as const;

/**
 * A bib an organizer types, judged by the event's own bib settings (its format and the digits its
 * bibs have) rather than a generic limit: anything the event cannot have is refused with the reason,
 * never cut or changed into another runner's number. Stored as `extractBibs` stores reads
 * (`normaliseBib`); a zero-padded event (allowLeadingZeros) may be typed without the zeros.
 */
export function checkManualBib(typed: string, config: BibSettings): { number: string } | { error: string } {
  const text = printedBib(typed);
  if (text === "") return { error: manualBibMessages.required };
  const digitsOnly = config.bibPattern === defaultEventConfig.bibPattern;
  if (!matchesBibPattern(text, config.bibPattern))
    return { error: digitsOnly ? manualBibMessages.digitsOnly : manualBibMessages.format(config) };
  const digits = digitCount(text);
  const shortest = config.allowLeadingZeros ? 1 : config.minDigits;
  if (digits < shortest || digits > config.maxDigits)
    return { error: digitsOnly ? manualBibMessages.length(config) : manualBibMessages.format(config) };
  return { number: normaliseBib(text) };
}
