import { defaultEventPricing } from "@dorsal/shared";
import { keys } from "../data/keys";
import type { Table } from "../ports/table";

/**
 * Stores an event's pricing as a save before pesos-only (issue 22) could have left it: in dollars,
 * which the API no longer accepts, so tests write the item straight into the table.
 */
export async function storePricingInDollars(table: Table, eventId: number): Promise<void> {
  await table.put({
    ...keys.eventPricing(eventId),
    type: "eventPricing",
    ...defaultEventPricing,
    currency: "USD",
    basePrice: 5,
    tier2Price: 4.5,
    tier3Price: 4,
    tier4Price: 3.75,
    eventId,
    updatedAt: "2026-11-20T10:00:00.000Z",
  });
}
