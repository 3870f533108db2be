import { cartPrice, defaultEventPricing } from "@dorsal/shared";
import { describe, expect, it } from "vitest";
import { type PriceOf, priceSteps } from "./prices";

const ladder = (priceOf: PriceOf, bibPhotoCount: number) =>
  priceSteps(priceOf, bibPhotoCount).map(({ from, to, price }) => ({ from, to, rule: price.rule, total: price.total }));

describe("priceSteps", () => {
  it("lists the event's tiers the bib's photos can reach", () => {
    const priceOf: PriceOf = (count) =>
      cartPrice({ count, bibPhotoCount: 12, photoPrice: 15000, eventPricing: defaultEventPricing });
    expect(ladder(priceOf, 12)).toEqual([
      { from: 1, to: 2, rule: "eventPricing", total: 10000 },
      { from: 3, to: 4, rule: "eventPricing", total: 24000 },
      { from: 5, to: 9, rule: "eventPricing", total: 30000 },
      { from: 10, to: 11, rule: "eventPricing", total: 50000 },
    ]);
    expect(ladder(priceOf, 4).map(({ from, to }) => [from, to])).toEqual([
      [1, 2],
      [3, 3],
    ]);
  });

  it("lists spec §9's bundles, each run at one total, when the event has no pricing of its own", () => {
    const priceOf: PriceOf = (count) => cartPrice({ count, bibPhotoCount: 12, photoPrice: 15000, eventPricing: null });
    expect(ladder(priceOf, 12)).toEqual([
      { from: 1, to: 2, rule: "perPhoto", total: 15000 },
      { from: 3, to: 4, rule: "bundle3", total: 20000 },
      { from: 5, to: 11, rule: "bundle5", total: 30000 },
    ]);
  });

  it("has the single price of a bib with one photo", () => {
    const priceOf: PriceOf = (count) => cartPrice({ count, bibPhotoCount: 1, photoPrice: 15000, eventPricing: null });
    expect(ladder(priceOf, 1)).toEqual([{ from: 1, to: 1, rule: "perPhoto", total: 15000 }]);
  });
});
