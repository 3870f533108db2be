import { defaultEventPricing, pricingMessages } from "@dorsal/shared";
import { describe, expect, it } from "vitest";
import {
  type Draft,
  discountLabel,
  draftRules,
  type FieldErrors,
  parseDraft,
  savedInOtherCurrency,
  shownErrors,
  toDraft,
} from "./pricing-draft";

const draft = toDraft(defaultEventPricing);

describe("pricing draft", () => {
  it("round-trips the stored pricing through the form", () => {
    expect(draft.basePrice).toBe("10000");
    expect(parseDraft(draft)).toEqual({ pricing: defaultEventPricing });
  });

  it("falls back to 7 days when the validity is not a number (spec §5)", () => {
    expect(parseDraft({ ...draft, downloadValidityDays: "" })).toEqual({
      pricing: { ...defaultEventPricing, downloadValidityDays: 7 },
    });
  });

  it("reports a blank price as not a number and a broken ladder on the field to fix", () => {
    expect(parseDraft({ ...draft, basePrice: " " })).toEqual({ errors: { basePrice: pricingMessages.notANumber } });
    expect(parseDraft({ ...draft, tier3Price: "9000" })).toEqual({
      errors: { tier3Price: pricingMessages.tierPriceAbovePrevious },
    });
  });

  it("gives live rules only while every price and tier is a number", () => {
    expect(draftRules({ ...draft, tier2Price: "7000" })).toMatchObject({ tier2Price: 7000, basePrice: 10000 });
    expect(draftRules({ ...draft, tier2Price: "" })).toBeUndefined();
    expect(draftRules({ ...draft, basePrice: "0" })).toBeUndefined();
  });

  it("names a discount by the photos it starts at, or by its order while that is not a count", () => {
    expect(discountLabel(draft, 2)).toBe("Desde 3 fotos");
    expect(discountLabel({ ...draft, tier4Photos: "" }, 4)).toBe("Descuento 3");
  });

  const errorsOf = (typed: Draft): FieldErrors => {
    const parsed = parseDraft(typed);
    return "errors" in parsed ? parsed.errors : {};
  };

  it("shows a field's own error once it was left, a ladder error at once, and all after a save was tried", () => {
    const tooCheap = errorsOf({ ...draft, tier2Price: "500" });
    expect(shownErrors(tooCheap, { everything: false, left: new Set() })).toEqual({});
    expect(shownErrors(tooCheap, { everything: false, left: new Set(["tier2Price"]) })).toEqual({
      tier2Price: "El precio mínimo es $ 1.000 COP",
    });
    const dearer = errorsOf({ ...draft, tier2Price: "12000" });
    expect(shownErrors(dearer, { everything: false, left: new Set() })).toEqual({
      tier2Price: pricingMessages.tierPriceAboveBase,
    });
    // Compared with a base price that is not valid yet (typing "15000" passes through "1"), it waits.
    const halfTyped = errorsOf({ ...draft, basePrice: "1" });
    expect(shownErrors(halfTyped, { everything: false, left: new Set() })).toEqual({});
    expect(shownErrors(halfTyped, { everything: true, left: new Set() })).toMatchObject({
      basePrice: "El precio mínimo es $ 1.000 COP",
      tier2Price: pricingMessages.tierPriceAboveBase,
    });
    // Typing more digits never brings a price back under the maximum: that error shows at once.
    const tooDear = errorsOf({ ...draft, basePrice: "20000000" });
    expect(shownErrors(tooDear, { everything: false, left: new Set() })).toEqual({
      basePrice: "El precio máximo es $ 10.000.000 COP",
    });
  });

  it("starts a pricing saved in dollars before pesos-only without its prices, and saves it in pesos", () => {
    const inDollars = { ...defaultEventPricing, currency: "USD", basePrice: 5, tier2Price: 4.5, tier4Price: 3.75 };
    expect(savedInOtherCurrency(inDollars)).toBe(true);
    expect(savedInOtherCurrency(defaultEventPricing)).toBe(false);

    const legacy = toDraft(inDollars);
    expect(legacy).toEqual({
      ...draft,
      basePrice: "",
      tier2Price: "",
      tier3Price: "",
      tier4Price: "",
    });
    const repriced = { ...legacy, basePrice: "12000", tier2Price: "9000", tier3Price: "7000", tier4Price: "6000" };
    expect(parseDraft(repriced)).toEqual({
      pricing: { ...defaultEventPricing, basePrice: 12000, tier2Price: 9000, tier3Price: 7000, tier4Price: 6000 },
    });
  });
});
