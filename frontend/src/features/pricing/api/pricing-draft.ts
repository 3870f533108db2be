import {
  defaultEventPricing,
  type EventPricing,
  eventPricingRequest,
  type PricingCurrency,
  type PricingRules,
} from "@dorsal/shared";

/** The pricing form as typed: numbers stay text until saved, so a half-typed value is not lost. */
export type NumberField = Exclude<keyof EventPricing, "currency" | "volumeDiscountEnabled">;
export type Draft = Record<NumberField, string> & { currency: PricingCurrency; volumeDiscountEnabled: boolean };
export type FieldErrors = Partial<Record<keyof EventPricing, string>>;

export const numberFields = [
  "basePrice",
  "tier2Photos",
  "tier2Price",
  "tier3Photos",
  "tier3Price",
  "tier4Photos",
  "tier4Price",
  "downloadValidityDays",
] as const satisfies readonly NumberField[];

export function toDraft(pricing: EventPricing): Draft {
  const draft = { currency: pricing.currency, volumeDiscountEnabled: pricing.volumeDiscountEnabled } as Draft;
  for (const field of numberFields) draft[field] = String(pricing[field]);
  return draft;
}

/** Blank is not zero: it must fail as "not a number", not as "below the minimum". */
const toNumber = (value: string) => (value.trim() === "" ? Number.NaN : Number(value));

function toInput(draft: Draft): Record<keyof EventPricing, unknown> {
  const input: Record<string, unknown> = {
    currency: draft.currency,
    volumeDiscountEnabled: draft.volumeDiscountEnabled,
  };
  for (const field of numberFields) input[field] = toNumber(draft[field]);
  // Spec §5: a validity that is not a number falls back to the default 7 days.
  if (Number.isNaN(input.downloadValidityDays)) input.downloadValidityDays = defaultEventPricing.downloadValidityDays;
  return input as Record<keyof EventPricing, unknown>;
}

/** The shared schema's verdict, with the first message of each field (the texts are already Spanish). */
export function parseDraft(draft: Draft): { pricing: EventPricing } | { errors: FieldErrors } {
  const parsed = eventPricingRequest.safeParse(toInput(draft));
  if (parsed.success) return { pricing: parsed.data };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) errors[issue.path[0] as keyof EventPricing] ??= issue.message;
  return { errors };
}

/** The rules as typed so far, for the live savings; undefined while a price or tier is not a number. */
export function draftRules(draft: Draft): PricingRules | undefined {
  const rules = {
    basePrice: toNumber(draft.basePrice),
    volumeDiscountEnabled: draft.volumeDiscountEnabled,
    tier2Photos: toNumber(draft.tier2Photos),
    tier2Price: toNumber(draft.tier2Price),
    tier3Photos: toNumber(draft.tier3Photos),
    tier3Price: toNumber(draft.tier3Price),
    tier4Photos: toNumber(draft.tier4Photos),
    tier4Price: toNumber(draft.tier4Price),
  };
  const complete = Object.values(rules).every((value) => typeof value === "boolean" || Number.isFinite(value));
  return complete && rules.basePrice > 0 ? rules : undefined;
}
