import {
  defaultEventPricing,
  type EventPricing,
  eventPricingRequest,
  type PricingRules,
  pricingMessages,
  type StoredEventPricing,
} from "@dorsal/shared";
import { firstErrorByField } from "../../../lib/field-errors";

/** The pricing form as typed: numbers stay text until saved, so a half-typed value is not lost. */
export type NumberField = Exclude<keyof EventPricing, "currency" | "volumeDiscountEnabled">;
export type Draft = Record<NumberField, string> & { volumeDiscountEnabled: boolean };
export type FieldErrors = Partial<Record<keyof EventPricing, string>>;

const priceFields = ["basePrice", "tier2Price", "tier3Price", "tier4Price"] as const satisfies readonly NumberField[];

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

/** Whether the pricing was saved in another currency, before only pesos were offered (checkout refuses it). */
export const savedInOtherCurrency = (pricing: StoredEventPricing) => pricing.currency !== "COP";

/**
 * The form of a stored pricing. One saved in another currency starts without prices: there is no
 * exchange rate, and no figure means the same in pesos.
 */
export function toDraft(pricing: StoredEventPricing): Draft {
  const draft = { volumeDiscountEnabled: pricing.volumeDiscountEnabled } as Draft;
  for (const field of numberFields) draft[field] = String(pricing[field]);
  if (savedInOtherCurrency(pricing)) for (const field of priceFields) draft[field] = "";
  return draft;
}

/** Blank is not zero: it must fail as "not a number", not as "below the minimum". */
const toNumber = (value: string) => (value.trim() === "" ? Number.NaN : Number(value));

function toInput(draft: Draft): Record<string, unknown> {
  // No currency: the schema fills in pesos, the only one.
  const input: Record<string, unknown> = { volumeDiscountEnabled: draft.volumeDiscountEnabled };
  for (const field of numberFields) input[field] = toNumber(draft[field]);
  // Spec §5: a validity that is not a number falls back to the default 7 days.
  if (Number.isNaN(input.downloadValidityDays)) input.downloadValidityDays = defaultEventPricing.downloadValidityDays;
  return input;
}

/** The shared schema's verdict, with the first message of each field (the texts are already Spanish). */
export function parseDraft(draft: Draft): { pricing: EventPricing } | { errors: FieldErrors } {
  const parsed = eventPricingRequest.safeParse(toInput(draft));
  if (parsed.success) return { pricing: parsed.data };
  return { errors: firstErrorByField<keyof EventPricing>(parsed.error.issues) };
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

/** The discounts as the organizer reads them: 'Descuento 1' is stored as tier 2 (spec §3). */
export const discountTiers = [
  { tier: 2, name: "descuento 1" },
  { tier: 3, name: "descuento 2" },
  { tier: 4, name: "descuento 3" },
] as const;

/** A discount is named by when it applies ('Desde 3 fotos'), or by its order while its count is not a count yet. */
export function discountLabel(draft: Draft, tier: 2 | 3 | 4): string {
  const photos = toNumber(draft[`tier${tier}Photos`]);
  return Number.isInteger(photos) && photos > 0 ? `Desde ${photos} fotos` : `Descuento ${tier - 1}`;
}

/** The field each ladder rule compares a field with (the schema's superRefine in shared/src/pricing.ts). */
const comparedWith: Partial<Record<NumberField, NumberField>> = {
  tier2Price: "basePrice",
  tier3Price: "tier2Price",
  tier4Price: "tier3Price",
  tier3Photos: "tier2Photos",
  tier4Photos: "tier3Photos",
};

/**
 * Which of the draft's current errors to show. Rules a value passes through while it is typed (a
 * minimum: "15000" is "1" first; a step) wait until the organizer leaves the field or tries to
 * save. A price over the maximum shows at once, and so does a ladder error (a discount dearer than
 * the price above it) unless the price it is compared with is itself not valid yet. Errors are
 * recomputed from the draft each time, so one goes as soon as its cause does, whichever field fixed it.
 */
export function shownErrors(
  current: FieldErrors,
  options: { everything: boolean; left: ReadonlySet<NumberField> },
): FieldErrors {
  const shown: FieldErrors = {};
  for (const [field, message] of Object.entries(current) as [keyof FieldErrors, string][]) {
    const other = comparedWith[field as NumberField];
    const ladder = other !== undefined && current[other] === undefined && ladderMessages.includes(message);
    const atOnce = ladder || message === pricingMessages.priceMax;
    if (options.everything || atOnce || options.left.has(field as NumberField)) shown[field] = message;
  }
  return shown;
}

const ladderMessages: readonly string[] = [
  pricingMessages.tierPriceAboveBase,
  pricingMessages.tierPriceAbovePrevious,
  pricingMessages.tierPhotosIncreasing,
];
