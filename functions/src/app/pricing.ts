import { type EventPricing, type EventPricingDto, messages } from "@dorsal/shared";
import type { Deps } from "./deps";
import { notFound } from "./errors";

/**
 * An event's pricing. Public on purpose: the athlete's purchase screen shows and charges these
 * prices before anyone signs in, and they are no secret (spec §6 lists the path among those that
 * carry a token, which the browser still sends when signed in).
 */
export async function getEventPricing(deps: Deps, eventId: number): Promise<EventPricingDto> {
  if (!(await deps.events.get(eventId))) throw notFound(messages.eventNotFound);
  return deps.pricing.get(eventId);
}

/** Saves an event's pricing (admin); the schema has already checked spec §5's rules and the tier ladder. */
export async function saveEventPricing(deps: Deps, eventId: number, pricing: EventPricing): Promise<EventPricingDto> {
  if (!(await deps.events.get(eventId))) throw notFound(messages.eventNotFound);
  return deps.pricing.save(eventId, pricing, deps.clock.now());
}
