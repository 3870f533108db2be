import { z } from "zod";

/**
 * Event pricing (spec §3 event_pricing, §5 pricing inputs, §9): the per-photo price and up to three
 * volume tiers. The schema validates the admin's form on both sides; the pure functions below are
 * what the pricing screen shows and what the athlete's purchase charges, so both agree.
 */

export const pricingCurrencies = ["COP", "USD", "EUR"] as const;
export type PricingCurrency = (typeof pricingCurrencies)[number];

/** Spec §3/§9 defaults: what an event charges until an admin saves its own pricing. */
export const defaultEventPricing = {
  basePrice: 10000,
  currency: "COP",
  tier2Photos: 3,
  tier2Price: 8000,
  tier3Photos: 5,
  tier3Price: 6000,
  tier4Photos: 10,
  tier4Price: 5000,
  volumeDiscountEnabled: true,
  downloadValidityDays: 7,
} as const satisfies EventPricing;

/** The limits of a price in one currency. */
export interface CurrencyRules {
  minPrice: number;
  maxPrice: number;
  /** Prices are whole multiples of this. */
  step: number;
  /** Digits after the decimal separator that prices of this currency have. */
  decimals: number;
  /** Shown before the amount, as in '$ 10.000 COP' (spec §9). */
  symbol: string;
}

/**
 * Spec §5's rules (from 1000, in steps of 1000) are peso rules. Dollars and euros are priced in
 * cents from 1 up to 1000: a race photo never costs more, and the cap keeps a peso figure (10000 by
 * default) from ever being accepted as a dollar or euro price.
 */
export const currencyRules: Record<PricingCurrency, CurrencyRules> = {
  COP: { minPrice: 1000, maxPrice: 10_000_000, step: 1000, decimals: 0, symbol: "$" },
  USD: { minPrice: 1, maxPrice: 1000, step: 0.01, decimals: 2, symbol: "$" },
  EUR: { minPrice: 1, maxPrice: 1000, step: 0.01, decimals: 2, symbol: "€" },
};

/** Spec §5: tiers 2, 3 and 4 start at no fewer than 2, 3 and 5 photos. */
export const pricingLimits = {
  tierMinPhotos: { 2: 2, 3: 3, 4: 5 },
  maxTierPhotos: 1000,
  minValidityDays: 1,
  maxValidityDays: 365,
} as const;

const amountFormats = Object.fromEntries(
  Object.entries(currencyRules).map(([currency, rules]) => [
    currency,
    new Intl.NumberFormat("es-CO", { minimumFractionDigits: rules.decimals, maximumFractionDigits: rules.decimals }),
  ]),
) as Record<PricingCurrency, Intl.NumberFormat>;

/**
 * Spec §9: pricing amounts in es-CO, as '$ 10.000 COP'. Pesos have no decimals; dollars and euros
 * show their cents ('$ 4,50 USD', '€ 4,50 EUR'), since they are priced in cents.
 */
export function formatPrice(amount: number, currency: PricingCurrency = "COP"): string {
  return `${currencyRules[currency].symbol} ${amountFormats[currency].format(amount)} ${currency}`;
}

/** Amounts are kept to the cent: 5 − 4.99 is 0.01, not 0.0100000000000004. */
const toCents = (amount: number) => Math.round(amount * 100) / 100;

/** Whether `amount` is a whole number of the currency's steps (checked in its smallest unit, free of float error). */
function onStep(amount: number, rules: CurrencyRules): boolean {
  const scale = 10 ** rules.decimals;
  const minor = amount * scale;
  const whole = Math.round(minor);
  return Math.abs(minor - whole) < 1e-6 && whole % Math.round(rules.step * scale) === 0;
}

/**
 * Spanish texts of the pricing rules. They live with the schema rather than in messages.ts because
 * they are built from the limits above and only this schema uses them. Discounts are named by
 * their order ('descuento 1'): 'tier 2/3/4' is only how they are stored (spec §3).
 */
export const pricingMessages = {
  notANumber: "Ingresa un número",
  notAWholeNumber: "Ingresa un número entero",
  priceMin: (currency: PricingCurrency) =>
    `El precio mínimo es ${formatPrice(currencyRules[currency].minPrice, currency)}`,
  priceMax: (currency: PricingCurrency) =>
    `El precio máximo es ${formatPrice(currencyRules[currency].maxPrice, currency)}`,
  priceStep: (currency: PricingCurrency) =>
    currencyRules[currency].decimals === 0
      ? `El precio debe ser múltiplo de ${amountFormats[currency].format(currencyRules[currency].step)}`
      : "Usa como máximo dos decimales",
  /** The rule under the base price field. */
  priceHint: (currency: PricingCurrency) =>
    currencyRules[currency].decimals === 0
      ? `Mínimo ${formatPrice(currencyRules[currency].minPrice, currency)}, en múltiplos de ${amountFormats[currency].format(currencyRules[currency].step)}.`
      : `Mínimo ${formatPrice(currencyRules[currency].minPrice, currency)}, con hasta dos decimales.`,
  tierPhotosMin: (tier: 2 | 3 | 4) =>
    `El descuento ${tier - 1} debe empezar en al menos ${pricingLimits.tierMinPhotos[tier]} fotos`,
  tierPhotosMax: "Máximo 1.000 fotos",
  tierPhotosIncreasing: "Debe ser mayor que las fotos del descuento anterior",
  tierPriceAboveBase: "No puede ser mayor que el precio base",
  tierPriceAbovePrevious: "No puede ser mayor que el precio del descuento anterior",
  validityDays: "La validez debe ser de 1 a 365 días",
  currency: "Selecciona COP, USD o EUR",
  /** Sales refuse any currency but COP (sales.ts): the organizer is told before choosing another. */
  gatewayPesosOnly:
    "La pasarela de pagos cobra solo en pesos colombianos: con otra moneda no se pueden comprar fotos en línea, solo entregar códigos de descarga.",
  loadFailed: "Error cargando configuración de precios",
  saveFailed: "No se pudo guardar la configuración de precios",
} as const;

const wholeNumber = () => z.number({ error: pricingMessages.notAWholeNumber }).int(pricingMessages.notAWholeNumber);

/** A price's own bounds depend on the currency, so they are checked with the whole form below. */
const price = () => z.number({ error: pricingMessages.notANumber }).finite(pricingMessages.notANumber);

const tierPhotos = (tier: 2 | 3 | 4) =>
  wholeNumber()
    .min(pricingLimits.tierMinPhotos[tier], pricingMessages.tierPhotosMin(tier))
    .max(pricingLimits.maxTierPhotos, pricingMessages.tierPhotosMax);

const priceFields = ["basePrice", "tier2Price", "tier3Price", "tier4Price"] as const;

/**
 * POST /api/events/{id}/pricing. Each price follows its currency's rules (`currencyRules`). Beyond
 * spec §5's per-field rules, tiers must make sense as a ladder: each starts at more photos than the
 * one before, and its price is not above the base price or the previous tier's (equal is allowed,
 * so a tier can be left without a discount). The tiers are validated even while volume discounts
 * are off: they are kept, and switching discounts back on must not bring back a ladder that was
 * never valid.
 */
export const eventPricingRequest = z
  .object({
    basePrice: price(),
    currency: z.enum(pricingCurrencies, { error: pricingMessages.currency }).default("COP"),
    tier2Photos: tierPhotos(2),
    tier2Price: price(),
    tier3Photos: tierPhotos(3),
    tier3Price: price(),
    tier4Photos: tierPhotos(4),
    tier4Price: price(),
    volumeDiscountEnabled: z.boolean(),
    downloadValidityDays: wholeNumber()
      .min(pricingLimits.minValidityDays, pricingMessages.validityDays)
      .max(pricingLimits.maxValidityDays, pricingMessages.validityDays),
  })
  .superRefine((pricing, context) => {
    const issue = (path: keyof EventPricing, message: string) =>
      context.addIssue({ code: "custom", path: [path], message });
    // The ladder first: for a discount, "above the base price" says more than its own bounds.
    if (pricing.tier3Photos <= pricing.tier2Photos) issue("tier3Photos", pricingMessages.tierPhotosIncreasing);
    if (pricing.tier4Photos <= pricing.tier3Photos) issue("tier4Photos", pricingMessages.tierPhotosIncreasing);
    if (pricing.tier2Price > pricing.basePrice) issue("tier2Price", pricingMessages.tierPriceAboveBase);
    if (pricing.tier3Price > pricing.tier2Price) issue("tier3Price", pricingMessages.tierPriceAbovePrevious);
    if (pricing.tier4Price > pricing.tier3Price) issue("tier4Price", pricingMessages.tierPriceAbovePrevious);
    const { currency } = pricing;
    const rules = currencyRules[currency];
    for (const field of priceFields) {
      const amount = pricing[field];
      if (amount < rules.minPrice) issue(field, pricingMessages.priceMin(currency));
      else if (amount > rules.maxPrice) issue(field, pricingMessages.priceMax(currency));
      else if (!onStep(amount, rules)) issue(field, pricingMessages.priceStep(currency));
    }
  });
export type EventPricingRequest = z.input<typeof eventPricingRequest>;

export interface EventPricing {
  basePrice: number;
  currency: PricingCurrency;
  tier2Photos: number;
  tier2Price: number;
  tier3Photos: number;
  tier3Price: number;
  tier4Photos: number;
  tier4Price: number;
  volumeDiscountEnabled: boolean;
  downloadValidityDays: number;
}

/** GET /api/events/{id}/pricing: the event's pricing, or the defaults (`configured: false`). */
export interface EventPricingDto extends EventPricing {
  eventId: number;
  configured: boolean;
  updatedAt: string | null;
}

/** What the price of a selection depends on. */
export type PricingRules = Pick<
  EventPricing,
  | "basePrice"
  | "volumeDiscountEnabled"
  | "tier2Photos"
  | "tier2Price"
  | "tier3Photos"
  | "tier3Price"
  | "tier4Photos"
  | "tier4Price"
>;

export interface PricingTier {
  tier: 2 | 3 | 4;
  minPhotos: number;
  /** Price of each photo once the selection reaches `minPhotos`. */
  price: number;
  /** Per photo, against the base price. */
  savings: number;
  /** `savings` as a whole percent of the base price. */
  savingsPercent: number;
}

/** The three volume tiers with what each saves per photo against the base price (spec §9). */
export function pricingTiers(pricing: PricingRules): PricingTier[] {
  return ([2, 3, 4] as const).map((tier) => {
    const minPhotos = pricing[`tier${tier}Photos` as const];
    const price = pricing[`tier${tier}Price` as const];
    const savings = toCents(pricing.basePrice - price);
    const savingsPercent = pricing.basePrice > 0 ? Math.round((savings / pricing.basePrice) * 100) : 0;
    return { tier, minPhotos, price, savings, savingsPercent };
  });
}

export interface PhotoCountPrice {
  count: number;
  /** What each photo costs at this count. */
  unitPrice: number;
  total: number;
  /** The tier applied, or null for the base price. */
  tier: 2 | 3 | 4 | null;
  /** Against `count` photos at the base price. */
  savings: number;
}

/**
 * What `count` photos of one event cost: every photo at the price of the highest tier the count
 * reaches (spec §9: "3+ photos 8000 each"), or at the base price when volume discounts are off or
 * no tier is reached.
 */
export function priceForPhotoCount(pricing: PricingRules, count: number): PhotoCountPrice {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`Photo count must be a whole number ≥ 0: ${count}`);
  const reached = pricing.volumeDiscountEnabled ? pricingTiers(pricing).filter((tier) => count >= tier.minPhotos) : [];
  // A valid ladder is ordered, but the cheapest reached tier is what the buyer is owed either way.
  const best = reached.reduce<PricingTier | undefined>(
    (cheapest, tier) => (!cheapest || tier.price < cheapest.price ? tier : cheapest),
    undefined,
  );
  const unitPrice = best?.price ?? pricing.basePrice;
  const total = toCents(unitPrice * count);
  return { count, unitPrice, total, tier: best?.tier ?? null, savings: toCents(pricing.basePrice * count - total) };
}

/** Spec §9's cart rule, for events without their own pricing: bundle prices by count. */
export const cartBundlePrices = { allOfBib: 50000, fiveOrMore: 30000, threeOrFour: 20000 } as const;

export interface CartPrice {
  total: number;
  unitPrice: number;
  /** `count` photos at the plain per-photo price. */
  listTotal: number;
  rule: "eventPricing" | "bundleAllOfBib" | "bundle5" | "bundle3" | "perPhoto";
}

/**
 * What a cart costs (docs/features.md, "Prices"). An event whose admin saved a pricing charges its tiers
 * (`priceForPhotoCount`). Otherwise spec §9's cart rule applies with the system photo price: all the
 * bib's photos (more than one) 50000, 5 or more 30000, 3 or 4 20000, else price × count. Where
 * several apply the cheapest wins, and a bundle never costs more than the photos one by one (two
 * photos of a bib at 15000 are 30000, not 50000; all 4 of a bib are 20000, not 50000).
 */
export function cartPrice(input: {
  count: number;
  bibPhotoCount: number | null;
  photoPrice: number;
  eventPricing: PricingRules | null;
}): CartPrice {
  const { count, bibPhotoCount, photoPrice, eventPricing } = input;
  if (eventPricing) {
    const priced = priceForPhotoCount(eventPricing, count);
    return {
      total: priced.total,
      unitPrice: priced.unitPrice,
      listTotal: eventPricing.basePrice * count,
      rule: "eventPricing",
    };
  }
  const listTotal = photoPrice * count;
  const bundles: [CartPrice["rule"], number][] = [];
  if (bibPhotoCount !== null && count === bibPhotoCount && count > 1)
    bundles.push(["bundleAllOfBib", cartBundlePrices.allOfBib]);
  if (count >= 5) bundles.push(["bundle5", cartBundlePrices.fiveOrMore]);
  else if (count >= 3) bundles.push(["bundle3", cartBundlePrices.threeOrFour]);
  // Several rules can apply at once (all 4 photos of a bib are also '3 or 4'): the buyer gets the
  // cheapest, so taking one more photo never costs more than leaving it out.
  const cheapest = bundles.reduce<[CartPrice["rule"], number] | null>(
    (best, bundle) => (!best || bundle[1] < best[1] ? bundle : best),
    null,
  );
  if (!cheapest || cheapest[1] >= listTotal) {
    return { total: listTotal, unitPrice: photoPrice, listTotal, rule: "perPhoto" };
  }
  const [rule, total] = cheapest;
  return { total, unitPrice: Math.round(total / count), listTotal, rule };
}
