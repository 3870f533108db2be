import { type CartPrice, cartPrice, salesMessages } from "@dorsal/shared";
import { useQuery } from "@tanstack/react-query";
import { eventPricingQueryOptions } from "../../../lib/queries/event-pricing";
import { publicSettingsQueryOptions } from "./public-settings";

/** What a cart of `count` photos of the searched bib costs. */
export type PriceOf = (count: number) => CartPrice;

export type BibPricing =
  | { status: "pending" }
  | { status: "unavailable"; message: string }
  | { status: "ready"; priceOf: PriceOf };

/**
 * Prices before the cart, from `cartPrice` fed as the server's quote feeds it (functions/src/app/
 * sales.ts `priceCart`): the event's tiers when an admin saved them, else the system photo price
 * with spec §9's bundles. The purchase screen still asks the server, whose figure is what is charged.
 */
export function useBibPricing(eventId: number, bibPhotoCount: number): BibPricing {
  const pricing = useQuery(eventPricingQueryOptions(eventId));
  const photoPrice = useQuery({ ...publicSettingsQueryOptions(), select: (settings) => settings.photoPrice });
  if (pricing.isError) return { status: "unavailable", message: pricing.error.message };
  if (photoPrice.isError) return { status: "unavailable", message: photoPrice.error.message };
  if (pricing.isPending || photoPrice.isPending) return { status: "pending" };
  const eventPricing = pricing.data.configured ? pricing.data : null;
  // A pricing saved in another currency before only pesos were offered: the server refuses to quote it.
  if (eventPricing && eventPricing.currency !== "COP") {
    return { status: "unavailable", message: salesMessages.currencyNotSupported };
  }
  return {
    status: "ready",
    priceOf: (count) => cartPrice({ count, bibPhotoCount, photoPrice: photoPrice.data, eventPricing }),
  };
}

/** Counts from `from` to `to` that cost the same way: one price each, or one bundle total. */
export interface PriceStep {
  from: number;
  to: number;
  price: CartPrice;
}

/** Whether the rule charges each photo (event tiers, plain price) rather than a bundle total. */
export const chargesPerPhoto = (price: CartPrice) => price.rule === "perPhoto" || price.rule === "eventPricing";

const samePrice = (a: CartPrice, b: CartPrice) =>
  a.rule === b.rule && (chargesPerPhoto(a) ? a.unitPrice === b.unitPrice : a.total === b.total);

/**
 * The bib's price ladder below 'all of its photos' (which the screen shows on its own line): each
 * run of counts that `priceOf` prices alike, so the screen lists the tiers or bundles that apply
 * to this bib's number of photos and nothing it cannot reach.
 */
export function priceSteps(priceOf: PriceOf, bibPhotoCount: number): PriceStep[] {
  const steps: PriceStep[] = [];
  for (let count = 1; count <= Math.max(1, bibPhotoCount - 1); count++) {
    const price = priceOf(count);
    const previous = steps.at(-1);
    if (previous && samePrice(previous.price, price)) previous.to = count;
    else steps.push({ from: count, to: count, price });
  }
  return steps;
}
