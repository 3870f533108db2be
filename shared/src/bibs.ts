import { defaultEventConfig } from "./constants";

/**
 * Bib extraction rules shared by every text engine: which of the detected words are bib numbers.
 * Input mirrors Rekognition DetectText WORDs (confidence 0..100, boxes normalised 0..1).
 */
export interface BibRuleConfig {
  /** Minimum engine confidence, 0..100 (event_configs.ocrConfidenceThreshold). */
  ocrConfidenceThreshold: number;
  /** At most this many bibs per photo, most confident first (event_configs.maxDorsalsPerPhoto). */
  maxDorsalsPerPhoto: number;
  /** When false, only the most confident bib is kept (event_configs.enableMultiDorsalSupport). */
  enableMultiDorsalSupport: boolean;
  minDigits: number;
  maxDigits: number;
}

export interface WordCandidate {
  text: string;
  confidence: number;
  box: { left: number; top: number; width: number; height: number };
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
  minDigits: 1,
  maxDigits: 6,
};

export function extractBibs(words: WordCandidate[], rules: BibRuleConfig): BibCandidate[] {
  const pattern = new RegExp(`^\\d{${rules.minDigits},${rules.maxDigits}}$`);
  const best = new Map<string, BibCandidate>();
  for (const word of words) {
    const text = word.text.trim();
    if (!pattern.test(text) || word.confidence < rules.ocrConfidenceThreshold) continue;
    // Leading zeros are print style, not identity: "0891" and "891" are one runner.
    const number = text.replace(/^0+(?=\d)/, "");
    const seen = best.get(number);
    if (!seen || seen.confidence < word.confidence)
      best.set(number, { number, confidence: word.confidence, box: word.box });
  }
  const ranked = [...best.values()].sort((a, b) => b.confidence - a.confidence);
  return ranked.slice(0, rules.enableMultiDorsalSupport ? rules.maxDorsalsPerPhoto : 1);
}
