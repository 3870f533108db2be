import {
  type CreateEventInput,
  type DashboardStats,
  type EventConfigDto,
  type EventDto,
  type EventRecognitionConfig,
  messages,
} from "@dorsal/shared";
import type { EventRecord, EventStats } from "../data/events";
import type { Deps } from "./deps";
import { notFound } from "./errors";

const toEventDto = (event: EventRecord, stats: EventStats | undefined): EventDto => ({
  id: event.id,
  name: event.name,
  date: event.date,
  location: event.location,
  expectedParticipants: event.expectedParticipants,
  status: event.status,
  freePhotosEnabled: event.freePhotosEnabled,
  freePhotosEnabledAt: event.freePhotosEnabledAt,
  requiresAthleteLogin: event.requiresAthleteLogin,
  photoCount: stats?.processedPhotos ?? 0,
  totalPhotos: stats?.totalPhotos ?? 0,
  failedPhotos: stats?.failedPhotos ?? 0,
  duplicatePhotos: stats?.duplicatePhotos ?? 0,
  createdAt: event.createdAt,
  updatedAt: event.updatedAt,
});

/**
 * Creates an event:
 * 1. take the next numeric id from the atomic counter;
 * 2. store the event with the spec's defaults (active, free photos off, no athlete login).
 */
export async function createEvent(deps: Deps, input: CreateEventInput): Promise<EventDto> {
  const now = deps.clock.now().toISOString();
  const event: EventRecord = {
    id: await deps.events.nextId(),
    name: input.name,
    date: input.date,
    location: input.location,
    expectedParticipants: input.expectedParticipants,
    status: input.status,
    freePhotosEnabled: false,
    freePhotosEnabledAt: null,
    requiresAthleteLogin: false,
    createdAt: now,
    updatedAt: now,
  };
  await deps.events.create(event);
  return toEventDto(event, undefined);
}

export async function listEvents(deps: Deps): Promise<EventDto[]> {
  const events = await deps.events.list();
  const stats = await deps.events.stats(events.map((e) => e.id));
  return events.map((event) => toEventDto(event, stats.get(event.id)));
}

export async function getEvent(deps: Deps, eventId: number): Promise<EventDto> {
  const event = await deps.events.get(eventId);
  if (!event) throw notFound(messages.eventNotFound);
  const stats = await deps.events.stats([eventId]);
  return toEventDto(event, stats.get(eventId));
}

export async function dashboardStats(deps: Deps): Promise<DashboardStats> {
  const events = await deps.events.list();
  const stats = [...(await deps.events.stats(events.map((e) => e.id))).values()];
  return {
    activeEvents: events.filter((e) => e.status === "active").length,
    processedPhotos: stats.reduce((sum, s) => sum + s.processedPhotos, 0),
    detectedDorsals: stats.reduce((sum, s) => sum + s.dorsalsDetected, 0),
    // Sales arrive with the purchase flow; until then there is nothing to add up.
    monthlySales: 0,
  };
}

/**
 * 'Liberar Fotos Gratis' / 'Proteger Fotos': the public search switches between the GRATIS/DEMO
 * copy and the watermarked preview at once, as the pipeline made both for every photo. Switching to
 * the state the event is already in changes nothing (the enabled-at time stays the first one).
 */
export async function setFreePhotos(deps: Deps, eventId: number, enabled: boolean): Promise<EventDto> {
  const event = await deps.events.get(eventId);
  if (!event) throw notFound(messages.eventNotFound);
  const now = deps.clock.now().toISOString();
  const updated =
    event.freePhotosEnabled === enabled
      ? event
      : await deps.events.update(eventId, {
          freePhotosEnabled: enabled,
          freePhotosEnabledAt: enabled ? now : null,
          updatedAt: now,
        });
  if (!updated) throw notFound(messages.eventNotFound);
  const stats = await deps.events.stats([eventId]);
  return toEventDto(updated, stats.get(eventId));
}

export async function getEventConfig(deps: Deps, eventId: number): Promise<EventConfigDto> {
  if (!(await deps.events.get(eventId))) throw notFound(messages.eventNotFound);
  return deps.eventConfigs.get(eventId);
}

/** Saves the recognition settings; photos already processed change only when the organizer re-indexes. */
export async function updateEventConfig(
  deps: Deps,
  eventId: number,
  changes: EventRecognitionConfig,
): Promise<EventConfigDto> {
  if (!(await deps.events.get(eventId))) throw notFound(messages.eventNotFound);
  return deps.eventConfigs.update(eventId, changes, deps.clock.now());
}
