import { type EventConfigDto, type EventRecognitionConfig, eventRecognitionConfig } from "@dorsal/shared";

/** The recognition settings form: its text fields and how they become the API's numbers. */

export type NumberField =
  | "ocrConfidenceThreshold"
  | "maxDorsalsPerPhoto"
  | "dorsalSizeThreshold"
  | "minDigits"
  | "maxDigits";
export type Draft = Record<NumberField, string> & { enableMultiDorsalSupport: boolean; allowLeadingZeros: boolean };
export type FieldErrors = Partial<Record<NumberField, string>>;

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
  return {
    ocrConfidenceThreshold: decimalText(config.ocrConfidenceThreshold),
    maxDorsalsPerPhoto: String(config.maxDorsalsPerPhoto),
    dorsalSizeThreshold: decimalText(config.dorsalSizeThreshold),
    enableMultiDorsalSupport: config.enableMultiDorsalSupport,
    minDigits: String(config.minDigits),
    maxDigits: String(config.maxDigits),
    allowLeadingZeros: config.allowLeadingZeros,
  };
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
  });
  if (parsed.success) return { config: parsed.data };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as NumberField;
    if (field in fieldMessages) errors[field] = fieldMessages[field];
  }
  return { errors };
}
