import {
  type BibLetterPlacement,
  bibExample,
  bibFormatOf,
  bibPatternOf,
  cleanLetters,
  defaultEventConfig,
  describeBibFormat,
  type EventConfigDto,
  type EventRecognitionConfig,
} from "@dorsal/shared";
import { eventRecognitionConfig } from "@dorsal/shared/staff-requests";

/** The recognition settings form: its text fields and how they become the API's numbers. */

export type NumberField =
  | "ocrConfidenceThreshold"
  | "maxDorsalsPerPhoto"
  | "dorsalSizeThreshold"
  | "minDigits"
  | "maxDigits";
/** The bib format as picked; "custom" is a stored pattern the choices cannot express, kept as is. */
export type FormatChoice = BibLetterPlacement | "custom";
export type Draft = Record<NumberField, string> & {
  enableMultiDorsalSupport: boolean;
  allowLeadingZeros: boolean;
  format: FormatChoice;
  /** The letters the bibs may carry; empty for any letter. */
  letters: string;
  /** The stored pattern, sent back unchanged while "custom" is picked. */
  storedPattern: string;
};
export type FieldErrors = Partial<Record<NumberField | "bibPattern", string>>;

/** The schema's texts are generic English; these say what each field accepts. */
export const fieldMessages: Record<NumberField, string> = {
  ocrConfidenceThreshold: "Ingresa un número entre 0 y 100",
  maxDorsalsPerPhoto: "Ingresa un número entero entre 1 y 50",
  dorsalSizeThreshold: "Ingresa un número entre 0 y 1",
  minDigits: "Ingresa un número entero entre 1 y el máximo de dígitos",
  maxDigits: "Ingresa un número entero entre 1 y 10",
};

/** Decimals are written with a comma in Colombia; both are accepted back. */
const decimalText = (value: number) => String(value).replace(".", ",");

export function toDraft(config: EventConfigDto): Draft {
  const format = bibFormatOf(config.bibPattern, config);
  return {
    ocrConfidenceThreshold: decimalText(config.ocrConfidenceThreshold),
    maxDorsalsPerPhoto: String(config.maxDorsalsPerPhoto),
    dorsalSizeThreshold: decimalText(config.dorsalSizeThreshold),
    enableMultiDorsalSupport: config.enableMultiDorsalSupport,
    minDigits: String(config.minDigits),
    maxDigits: String(config.maxDigits),
    allowLeadingZeros: config.allowLeadingZeros,
    format: format?.placement ?? "custom",
    letters: format?.letters ?? "",
    storedPattern: config.bibPattern,
  };
}

/** The pattern the picked choices stand for. */
export function draftPattern(draft: Pick<Draft, "format" | "letters" | "storedPattern">): string {
  return draft.format === "custom"
    ? draft.storedPattern
    : bibPatternOf({ placement: draft.format, letters: draft.letters });
}

/**
 * What a valid bib looks like under the picked choices ('M10380', 'una letra y 5 dígitos'), or
 * null while the digit count is not a valid range or the format is custom.
 */
export function draftExample(draft: Draft): { example: string; description: string } | null {
  if (draft.format === "custom") return null;
  const minDigits = numberOf(draft.minDigits);
  const maxDigits = numberOf(draft.maxDigits);
  const digits = eventRecognitionConfig.safeParse({ ...defaultEventConfig, minDigits, maxDigits });
  if (!digits.success) return null;
  const format = { placement: draft.format, letters: cleanLetters(draft.letters) };
  return { example: bibExample(format, digits.data), description: describeBibFormat(format, digits.data) };
}

/** Plain decimals only: `Number` would also take '0x10' or '1e2', which nobody means here. */
function numberOf(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  return /^\d+([.,]\d+)?$/.test(trimmed) ? Number(trimmed.replace(",", ".")) : Number.NaN;
}

export function parseDraft(draft: Draft): { config: EventRecognitionConfig } | { errors: FieldErrors } {
  const parsed = eventRecognitionConfig.safeParse({
    ocrConfidenceThreshold: numberOf(draft.ocrConfidenceThreshold),
    maxDorsalsPerPhoto: numberOf(draft.maxDorsalsPerPhoto),
    dorsalSizeThreshold: numberOf(draft.dorsalSizeThreshold),
    enableMultiDorsalSupport: draft.enableMultiDorsalSupport,
    minDigits: numberOf(draft.minDigits),
    maxDigits: numberOf(draft.maxDigits),
    allowLeadingZeros: draft.allowLeadingZeros,
    bibPattern: draftPattern(draft),
  });
  if (parsed.success) return { config: parsed.data };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (field === "bibPattern") errors.bibPattern = issue.message;
    else if (typeof field === "string" && field in fieldMessages)
      errors[field as NumberField] = fieldMessages[field as NumberField];
  }
  return { errors };
}
