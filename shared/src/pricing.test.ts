import { describe, expect, it, vi } from "vitest";
import {
  cartPrice,
  defaultEventPricing,
  eventPricingRequest,
  formatPrice,
  priceForPhotoCount,
  pricingLimits,
  pricingMessages,
  pricingTiers,
} from "./pricing";

const issuesOf = (input: unknown) => {
  const parsed = eventPricingRequest.safeParse(input);
  const first: Record<string, string> = {};
  for (const issue of parsed.success ? [] : parsed.error.issues) first[issue.path.join(".")] ??= issue.message;
  return first;
};

describe("priceForPhotoCount", () => {
  it("charges the base price below the first tier", () => {
    expect(priceForPhotoCount(defaultEventPricing, 1)).toEqual({
      count: 1,
      unitPrice: 10000,
      total: 10000,
      tier: null,
      savings: 0,
    });
    expect(priceForPhotoCount(defaultEventPricing, 2).total).toBe(20000);
  });

  it("charges every photo at the highest tier the count reaches (3+, 5+, 10+ by default)", () => {
    expect(priceForPhotoCount(defaultEventPricing, 3)).toMatchObject({ unitPrice: 8000, total: 24000, tier: 2 });
    expect(priceForPhotoCount(defaultEventPricing, 4)).toMatchObject({ unitPrice: 8000, total: 32000, tier: 2 });
    expect(priceForPhotoCount(defaultEventPricing, 5)).toMatchObject({ unitPrice: 6000, total: 30000, tier: 3 });
    expect(priceForPhotoCount(defaultEventPricing, 10)).toMatchObject({
      unitPrice: 5000,
      total: 50000,
      tier: 4,
      savings: 50000,
    });
  });

  it("ignores the tiers while volume discounts are off", () => {
    const off = { ...defaultEventPricing, volumeDiscountEnabled: false };
    expect(priceForPhotoCount(off, 10)).toMatchObject({ unitPrice: 10000, total: 100000, tier: null, savings: 0 });
  });

  it("costs nothing for no photos and refuses a count that is not a whole number", () => {
    expect(priceForPhotoCount(defaultEventPricing, 0).total).toBe(0);
    expect(() => priceForPhotoCount(defaultEventPricing, -1)).toThrow(RangeError);
    expect(() => priceForPhotoCount(defaultEventPricing, 2.5)).toThrow(RangeError);
  });
});

describe("pricingTiers", () => {
  it("gives each tier's saving per photo and its percent of the base price", () => {
    expect(pricingTiers(defaultEventPricing)).toEqual([
      { tier: 2, minPhotos: 3, price: 8000, savings: 2000, savingsPercent: 20 },
      { tier: 3, minPhotos: 5, price: 6000, savings: 4000, savingsPercent: 40 },
      { tier: 4, minPhotos: 10, price: 5000, savings: 5000, savingsPercent: 50 },
    ]);
  });

  it("rounds the percent to a whole number", () => {
    const [tier2] = pricingTiers({ ...defaultEventPricing, basePrice: 15000, tier2Price: 13000 });
    expect(tier2).toMatchObject({ savings: 2000, savingsPercent: 13 });
  });
});

describe("formatPrice", () => {
  it("formats pesos in es-CO without decimals, as '$ … COP'", () => {
    expect(formatPrice(10000)).toBe("$ 10.000 COP");
    expect(formatPrice(1234567)).toBe("$ 1.234.567 COP");
    expect(formatPrice(0)).toBe("$ 0 COP");
  });

  it("builds its number format on first use only, not when the module loads", async () => {
    vi.resetModules();
    const NumberFormat = Intl.NumberFormat;
    let built = 0;
    Intl.NumberFormat = new Proxy(NumberFormat, {
      construct: (target, args) => {
        built++;
        return Reflect.construct(target, args);
      },
    });
    try {
      const fresh = await import("./pricing");
      expect(built).toBe(0);
      expect(fresh.formatPrice(8000)).toBe("$ 8.000 COP");
      expect(fresh.formatPrice(6000)).toBe("$ 6.000 COP");
      expect(built).toBe(1);
    } finally {
      Intl.NumberFormat = NumberFormat;
    }
  });
});

describe("pricingMessages", () => {
  it("states the limits the schema applies", () => {
    const number = new Intl.NumberFormat("es-CO");
    expect(pricingMessages.priceMin).toBe(`El precio mínimo es ${formatPrice(pricingLimits.minPrice)}`);
    expect(pricingMessages.priceMax).toBe(`El precio máximo es ${formatPrice(pricingLimits.maxPrice)}`);
    expect(pricingMessages.priceStep).toBe(`El precio debe ser múltiplo de ${number.format(pricingLimits.priceStep)}`);
    expect(pricingMessages.priceHint).toBe(
      `Mínimo ${formatPrice(pricingLimits.minPrice)}, en múltiplos de ${number.format(pricingLimits.priceStep)}.`,
    );
  });
});

describe("eventPricingRequest", () => {
  it("accepts the defaults and fills the currency", () => {
    const { currency: _currency, ...withoutCurrency } = defaultEventPricing;
    expect(eventPricingRequest.parse(withoutCurrency)).toEqual(defaultEventPricing);
  });

  it("applies spec §5: prices from 1000 in steps of 1000, validity 1 to 365 days", () => {
    // The ladder is still checked against the base price typed, so the tier above it is named too.
    expect(issuesOf({ ...defaultEventPricing, basePrice: 500 })).toEqual({
      basePrice: "El precio mínimo es $ 1.000 COP",
      tier2Price: pricingMessages.tierPriceAboveBase,
    });
    expect(issuesOf({ ...defaultEventPricing, basePrice: 10500 })).toEqual({
      basePrice: "El precio debe ser múltiplo de 1.000",
    });
    expect(issuesOf({ ...defaultEventPricing, basePrice: 10000.5 })).toEqual({
      basePrice: "El precio debe ser múltiplo de 1.000",
    });
    expect(issuesOf({ ...defaultEventPricing, basePrice: 10_001_000 })).toEqual({
      basePrice: "El precio máximo es $ 10.000.000 COP",
    });
    expect(issuesOf({ ...defaultEventPricing, downloadValidityDays: 0 })).toEqual({
      downloadValidityDays: pricingMessages.validityDays,
    });
    expect(issuesOf({ ...defaultEventPricing, downloadValidityDays: 366 })).toEqual({
      downloadValidityDays: pricingMessages.validityDays,
    });
    expect(issuesOf({ ...defaultEventPricing, basePrice: "10000" })).toEqual({ basePrice: pricingMessages.notANumber });
    expect(issuesOf({ ...defaultEventPricing, tier2Photos: 2.5 })).toEqual({
      tier2Photos: pricingMessages.notAWholeNumber,
    });
  });

  it("takes pesos only: any other currency is refused with one message, whatever the prices", () => {
    for (const currency of ["USD", "EUR", "cop", "", null]) {
      expect(issuesOf({ ...defaultEventPricing, currency })).toEqual({ currency: pricingMessages.currency });
    }
    const dollars = { basePrice: 5, tier2Price: 4.5, tier3Price: 4, tier4Price: 3.75 };
    expect(issuesOf({ ...defaultEventPricing, ...dollars, currency: "USD" })).toEqual({
      currency: pricingMessages.currency,
    });
    expect(pricingMessages.currency).toBe(
      "Los precios se cobran solo en pesos colombianos (COP): la pasarela de pagos no acepta otra moneda",
    );
  });

  it("requires tier minimums of at least 2, 3 and 5 photos, strictly increasing", () => {
    expect(issuesOf({ ...defaultEventPricing, tier2Photos: 1 })).toEqual({
      tier2Photos: "El descuento 1 debe empezar en al menos 2 fotos",
    });
    expect(issuesOf({ ...defaultEventPricing, tier4Photos: 4 })).toEqual({
      tier4Photos: "El descuento 3 debe empezar en al menos 5 fotos",
    });
    expect(issuesOf({ ...defaultEventPricing, tier2Photos: 5, tier3Photos: 5 })).toEqual({
      tier3Photos: pricingMessages.tierPhotosIncreasing,
    });
    expect(issuesOf({ ...defaultEventPricing, tier3Photos: 12 })).toEqual({
      tier4Photos: pricingMessages.tierPhotosIncreasing,
    });
  });

  it("refuses a tier price above the base price or the previous tier, and allows an equal one", () => {
    expect(issuesOf({ ...defaultEventPricing, tier2Price: 11000 })).toEqual({
      tier2Price: pricingMessages.tierPriceAboveBase,
    });
    expect(issuesOf({ ...defaultEventPricing, tier3Price: 9000 })).toEqual({
      tier3Price: pricingMessages.tierPriceAbovePrevious,
    });
    expect(issuesOf({ ...defaultEventPricing, tier4Price: 7000 })).toEqual({
      tier4Price: pricingMessages.tierPriceAbovePrevious,
    });
    expect(issuesOf({ ...defaultEventPricing, tier2Price: 10000, tier3Price: 10000, tier4Price: 10000 })).toEqual({});
  });
});

describe("cartPrice", () => {
  const base = { photoPrice: 15000, eventPricing: null };
  it("charges the event's tiers when the event has its own pricing", () => {
    const priced = cartPrice({ ...base, count: 5, bibPhotoCount: 5, eventPricing: defaultEventPricing });
    expect(priced).toEqual({ total: 30000, unitPrice: 6000, listTotal: 50000, rule: "eventPricing" });
  });
  it("applies the spec's bundles without event pricing", () => {
    expect(cartPrice({ ...base, count: 1, bibPhotoCount: 8 })).toMatchObject({ total: 15000, rule: "perPhoto" });
    expect(cartPrice({ ...base, count: 3, bibPhotoCount: 8 })).toMatchObject({ total: 20000, rule: "bundle3" });
    expect(cartPrice({ ...base, count: 4, bibPhotoCount: 8 })).toMatchObject({ total: 20000, rule: "bundle3" });
    expect(cartPrice({ ...base, count: 5, bibPhotoCount: 8 })).toMatchObject({ total: 30000, rule: "bundle5" });
    expect(cartPrice({ ...base, photoPrice: 30000, count: 2, bibPhotoCount: 2 })).toMatchObject({
      total: 50000,
      rule: "bundleAllOfBib",
    });
  });
  it("gives the cheapest rule when several apply, so all 4 photos of a bib cost what 3 do", () => {
    expect(cartPrice({ ...base, count: 4, bibPhotoCount: 4 })).toMatchObject({ total: 20000, rule: "bundle3" });
    expect(cartPrice({ ...base, count: 8, bibPhotoCount: 8 })).toMatchObject({ total: 30000, rule: "bundle5" });
  });
  it("never charges a bundle above the photos one by one", () => {
    expect(cartPrice({ ...base, count: 2, bibPhotoCount: 2 })).toMatchObject({ total: 30000, rule: "perPhoto" });
    expect(cartPrice({ ...base, photoPrice: 5000, count: 3, bibPhotoCount: 9 })).toMatchObject({
      total: 15000,
      rule: "perPhoto",
    });
  });
});
