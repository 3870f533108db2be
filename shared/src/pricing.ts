import { z } from "zod";

/**
 * Event pricing (spec §3 event_pricing, §5 pricing inputs, §9): the per-photo price and up to three
 * volume tiers. The schema validates the admin's form on both sides; the pure functions below are
 * what the pricing screen shows and what the athlete's purchase charges, so both agree.
 */

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

/** Spec §5: prices from 1000 in steps of 1000; tiers 2, 3 and 4 start at no fewer than 2, 3 and 5 photos. */
export const pricingLimits = {
  minPrice: 1000,
  maxPrice: 10_000_000,
  priceStep: 1000,
  tierMinPhotos: { 2: 2, 3: 3, 4: 5 },
  maxTierPhotos: 1000,
  minValidityDays: 1,
  maxValidityDays: 365,
} as const;

// Made on first use: building it takes ~25 ms, and this module loads with the athlete's first screen (/search).
let pesos: Intl.NumberFormat | undefined;

/** Spec §9: pricing amounts in es-CO without decimals, as '$ 10.000 COP'. */
export function formatPrice(amount: number): string {
  pesos ??= new Intl.NumberFormat("es-CO", { maximumFractionDigits: 0 });
  return `$ ${pesos.format(amount)} COP`;
}

/**
 * Spanish texts of the pricing rules. They live with the schema rather than in messages.ts because
 * they state the limits above and only this schema uses them; the price texts are written out
 * rather than built with `formatPrice`, so loading the module formats nothing (pricing.test.ts
 * checks they match the limits). Discounts are named by their order ('descuento 1'): 'tier 2/3/4'
 * is only how they are stored (spec §3).
 */
export const pricingMessages = {
  notANumber: "Ingresa un número",
  notAWholeNumber: "Ingresa un número entero",
  priceMin: "El precio mínimo es $ 1.000 COP",
  priceMax: "El precio máximo es $ 10.000.000 COP",
  priceStep: "El precio debe ser múltiplo de 1.000",
  /** The rule under the base price field. */
  priceHint: "Mínimo $ 1.000 COP, en múltiplos de 1.000.",
  tierPhotosMin: (tier: 2 | 3 | 4) =>
    `El descuento ${tier - 1} debe empezar en al menos ${pricingLimits.tierMinPhotos[tier]} fotos`,
  tierPhotosMax: "Máximo 1.000 fotos",
  tierPhotosIncreasing: "Debe ser mayor que las fotos del descuento anterior",
  tierPriceAboveBase: "No puede ser mayor que el precio base",
  tierPriceAbovePrevious: "No puede ser mayor que el precio del descuento anterior",
  validityDays: "La validez debe ser de 1 a 365 días",
  currency: "Los precios se cobran solo en pesos colombianos (COP): la pasarela de pagos no acepta otra moneda",
  loadFailed: "Error cargando configuración de precios",
  saveFailed: "No se pudo guardar la configuración de precios",
} as const;

const wholeNumber = () => z.number({ error: pricingMessages.notAWholeNumber }).int(pricingMessages.notAWholeNumber);

/** Its bounds are checked with the ladder below, which a field failing here would keep zod from running. */
const price = () => z.number({ error: pricingMessages.notANumber }).finite(pricingMessages.notANumber);

const tierPhotos = (tier: 2 | 3 | 4) =>
  wholeNumber()
    .min(pricingLimits.tierMinPhotos[tier], pricingMessages.tierPhotosMin(tier))
    .max(pricingLimits.maxTierPhotos, pricingMessages.tierPhotosMax);

const priceFields = ["basePrice", "tier2Price", "tier3Price", "tier4Price"] as const;

/**
 * POST /api/events/{id}/pricing. In pesos only: the payment gateway charges nothing else and the
 * product has no exchange rate (docs/spec-departures.md). Beyond spec §5's per-field rules, tiers
 * must make sense as a ladder: each starts at more photos than the one before, and its price is
 * not above the base price or the previous tier's (equal is allowed, so a tier can be left without
 * a discount). The tiers are validated even while volume discounts are off: they are kept, and
 * switching discounts back on must not bring back a ladder that was never valid.
 */
export const eventPricingRequest = z
  .object({
    basePrice: price(),
    currency: z.literal("COP", { error: pricingMessages.currency }).default("COP"),
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
    for (const field of priceFields) {
      const amount = pricing[field];
      if (amount < pricingLimits.minPrice) issue(field, pricingMessages.priceMin);
      else if (amount > pricingLimits.maxPrice) issue(field, pricingMessages.priceMax);
      else if (amount % pricingLimits.priceStep !== 0) issue(field, pricingMessages.priceStep);
    }
  });
export type EventPricingRequest = z.input<typeof eventPricingRequest>;

export interface EventPricing {
  basePrice: number;
  currency: "COP";
  tier2Photos: number;
  tier2Price: number;
  tier3Photos: number;
  tier3Price: number;
  tier4Photos: number;
  tier4Price: number;
  volumeDiscountEnabled: boolean;
  downloadValidityDays: number;
}

/**
 * A pricing as stored. Its currency is "COP", unless it was saved before only pesos were offered:
 * then it may be "USD" or "EUR", which checkout refuses until an admin saves the pricing again.
 */
export interface StoredEventPricing extends Omit<EventPricing, "currency"> {
  currency: string;
}

/** GET /api/events/{id}/pricing: the event's pricing, or the defaults (`configured: false`). */
export interface EventPricingDto extends StoredEventPricing {
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
    const savings = pricing.basePrice - price;
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
  const total = unitPrice * count;
  return { count, unitPrice, total, tier: best?.tier ?? null, savings: pricing.basePrice * count - total };
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
