import { defaultEventPricing, type EventPricing, type EventPricingDto, type StoredEventPricing } from "@dorsal/shared";
import type { Table } from "../ports/table";
import { keys } from "./keys";

/** Saves write pesos only, but an item saved before may hold another currency: it is read as it is. */
interface PricingItem extends StoredEventPricing {
  eventId: number;
  updatedAt: string;
}

const toDto = (eventId: number, stored: PricingItem | undefined): EventPricingDto => {
  const pricing: StoredEventPricing = { ...defaultEventPricing, ...stored };
  return {
    eventId,
    basePrice: pricing.basePrice,
    currency: pricing.currency,
    tier2Photos: pricing.tier2Photos,
    tier2Price: pricing.tier2Price,
    tier3Photos: pricing.tier3Photos,
    tier3Price: pricing.tier3Price,
    tier4Photos: pricing.tier4Photos,
    tier4Price: pricing.tier4Price,
    volumeDiscountEnabled: pricing.volumeDiscountEnabled,
    downloadValidityDays: pricing.downloadValidityDays,
    configured: stored !== undefined,
    updatedAt: stored?.updatedAt ?? null,
  };
};

export function createPricingRepository(table: Table) {
  return {
    /** The saved pricing, or spec §3's defaults for an event that never saved one. */
    async get(eventId: number): Promise<EventPricingDto> {
      return toDto(eventId, await table.get<PricingItem>(keys.eventPricing(eventId)));
    },

    /** Replaces the whole pricing: the form always sends every field. */
    async save(eventId: number, pricing: EventPricing, now: Date): Promise<EventPricingDto> {
      const item: PricingItem = { ...pricing, eventId, updatedAt: now.toISOString() };
      await table.put({ ...keys.eventPricing(eventId), type: "eventPricing", ...item });
      return toDto(eventId, item);
    },
  };
}
export type PricingRepository = ReturnType<typeof createPricingRepository>;
