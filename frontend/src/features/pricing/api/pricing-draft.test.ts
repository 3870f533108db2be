import { defaultEventPricing, pricingMessages } from "@dorsal/shared";
import { describe, expect, it } from "vitest";
import { draftRules, parseDraft, toDraft } from "./pricing-draft";

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
});
