import {
  type CreateEventInput,
  type DashboardStats,
  type EventConfigDto,
  type EventDto,
  type EventRecognitionConfig,
  type EventRecountProgress,
  type EventSalesSummary,
  messages,
} from "@dorsal/shared";
import { processedMinutesBetween } from "../data/dashboard";
import type { EventRecord, EventStats, RecountPosition } from "../data/events";
import type { PageCursor } from "../data/photos";
import type { Deps } from "./deps";
import { notFound } from "./errors";
import { salesFigures } from "./sales-report";

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
  faceSearch: event.faceSearch === true,
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
    ...(input.unlisted ? { unlisted: true } : {}),
    createdAt: now,
    updatedAt: now,
  };
  await deps.events.create(event);
  return toEventDto(event, undefined);
}

/**
 * How far a recount is, from its checkpoint and the counters it is to replace: the photos read of
 * the photos counted, then the bibs with photos read of those counted, each phase half of a recount
 * that counts links too. Never 100 before the counters are written and the checkpoint gone.
 */
export function recountProgress(position: RecountPosition, stats: EventStats | undefined): EventRecountProgress {
  const share = (read: number, of: number) => (of > 0 ? Math.min(1, read / of) : 0);
  const photos = share(position.counts.totalPhotos, stats?.totalPhotos ?? 0);
  const bibs = share(position.counts.bibsWithPhotos, stats?.bibsWithPhotos ?? 0);
  const percent = (done: number) => Math.min(99, Math.floor(done * 100));
  if (position.phase === "replace") return { phase: "replace", percent: 99 };
  if (!position.links) return { phase: position.phase, percent: percent(photos) };
  return { phase: position.phase, percent: percent(position.phase === "photos" ? photos / 2 : 0.5 + bibs / 2) };
}

/**
 * Every event for an admin, with the recounts under way; everyone else does not see unlisted ones
 * (the preflight's probe) nor recounts.
 */
export async function listEvents(deps: Deps, options: { asAdmin: boolean }): Promise<EventDto[]> {
  const events = (await deps.events.list()).filter((event) => options.asAdmin || !event.unlisted);
  const ids = events.map((e) => e.id);
  const [stats, recounts] = await Promise.all([
    deps.events.stats(ids),
    options.asAdmin ? deps.events.recountsUnderWay(ids) : new Map<number, RecountPosition>(),
  ]);
  return events.map((event) => {
    const dto = toEventDto(event, stats.get(event.id));
    const recount = recounts.get(event.id);
    return recount ? { ...dto, recount: recountProgress(recount, stats.get(event.id)) } : dto;
  });
}

export async function getEvent(deps: Deps, eventId: number): Promise<EventDto> {
  const event = await deps.events.get(eventId);
  if (!event) throw notFound(messages.eventNotFound);
  const stats = await deps.events.stats([eventId]);
  return toEventDto(event, stats.get(eventId));
}

/**
 * The dashboard's four figures and what each card compares them with (docs/features.md, Dashboard):
 * events created this month, photos processed today (from the per-minute counters, only for
 * events that processed something today), the share of processed photos with a bib (from the
 * events' count of photos without one), and last month's sales.
 */
export async function dashboardStats(deps: Deps): Promise<DashboardStats> {
  const events = await deps.events.list();
  const stats = [...(await deps.events.stats(events.map((e) => e.id))).values()];
  const now = deps.clock.now();
  const { today, thisMonth } = colombianPeriods(now);
  const processedPhotos = stats.reduce((sum, s) => sum + s.processedPhotos, 0);
  const unbibbed = stats.reduce((sum, s) => sum + s.unbibbedPhotos, 0);
  const [processedToday, sales] = await Promise.all([
    sumOver(
      stats.filter((s) => s.lastProcessedAt !== null && s.lastProcessedAt >= today.toISOString()),
      async (s) => (await processedMinutesBetween(deps.table, s.eventId, today, now)).processed,
    ),
    salesFigures(deps),
  ]);
  return {
    activeEvents: events.filter((e) => e.status === "active").length,
    processedPhotos,
    detectedDorsals: stats.reduce((sum, s) => sum + s.dorsalsDetected, 0),
    monthlySales: sales.monthlySales,
    previousMonthSales: sales.previousMonthSales,
    eventsCreatedThisMonth: events.filter((e) => e.createdAt >= thisMonth.toISOString()).length,
    processedToday,
    photosWithBibPercent: percentWithBib(processedPhotos, unbibbed),
  };
}

/** 'Acceso deportistas': whether signed-in athletes get this event's photos free (docs/features.md, Athletes). */
export async function setAthleteAccess(deps: Deps, eventId: number, requiresAthleteLogin: boolean): Promise<EventDto> {
  const updated = await deps.events.update(eventId, {
    requiresAthleteLogin,
    updatedAt: deps.clock.now().toISOString(),
  });
  if (!updated) throw notFound(messages.eventNotFound);
  const stats = await deps.events.stats([eventId]);
  return toEventDto(updated, stats.get(eventId));
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

/**
 * An event's paid sales, counted over its sales a page at a time: read only when an organizer is
 * about to free the event's photos, so no counter is kept for it.
 */
export async function eventSalesSummary(deps: Deps, eventId: number): Promise<EventSalesSummary> {
  if (!(await deps.events.get(eventId))) throw notFound(messages.eventNotFound);
  const summary: EventSalesSummary = { eventId, paidSales: 0, paidAmount: 0 };
  let cursor: PageCursor | undefined;
  do {
    const page = await deps.sales.listByEvent(eventId, { limit: 200, cursor });
    for (const sale of page.sales) {
      if (sale.status !== "paid") continue;
      summary.paidSales += 1;
      summary.paidAmount += sale.amount;
    }
    cursor = page.cursor;
  } while (cursor);
  return summary;
}

export async function getEventConfig(deps: Deps, eventId: number): Promise<EventConfigDto> {
  const event = await deps.events.get(eventId);
  if (!event) throw notFound(messages.eventNotFound);
  return { ...(await deps.eventConfigs.get(eventId)), ...(await faceSearchSetting(deps, event)) };
}

/** The switch, and how far the indexing of the photos it found has got (null when none ran). */
async function faceSearchSetting(
  deps: Deps,
  event: EventRecord,
): Promise<Pick<EventConfigDto, "faceSearch" | "faceIndexing">> {
  if (event.faceSearch !== true) return { faceSearch: false, faceIndexing: null };
  const run = await deps.faceIndexing.get(event.id);
  return {
    faceSearch: true,
    faceIndexing: run ? { done: Math.min(run.done, run.total), total: run.total, finished: run.finished } : null,
  };
}

/** Saves the recognition settings; photos already processed change only when the organizer re-indexes. */
export async function updateEventConfig(
  deps: Deps,
  eventId: number,
  changes: EventRecognitionConfig,
): Promise<EventConfigDto> {
  const event = await deps.events.get(eventId);
  if (!event) throw notFound(messages.eventNotFound);
  return {
    ...(await deps.eventConfigs.update(eventId, changes, deps.clock.now())),
    ...(await faceSearchSetting(deps, event)),
  };
}

/**
 * Dorsal's organizers race in Colombia (UTC−5 all year, no daylight saving): "today" and "this
 * month" on the dashboard are theirs, not UTC's, which would turn the day at 7 p.m.
 */
const colombiaOffsetMs = -5 * 60 * 60 * 1000;

function colombianPeriods(now: Date): { today: Date; thisMonth: Date } {
  const local = new Date(now.getTime() + colombiaOffsetMs);
  const [year, month, day] = [local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()];
  return {
    today: new Date(Date.UTC(year, month, day) - colombiaOffsetMs),
    thisMonth: new Date(Date.UTC(year, month, 1) - colombiaOffsetMs),
  };
}

async function sumOver<T>(items: T[], count: (item: T) => Promise<number>): Promise<number> {
  return (await Promise.all(items.map(count))).reduce((sum, n) => sum + n, 0);
}

/** Clamped because the counters are written apart and may briefly disagree by a photo. */
export function percentWithBib(processed: number, unbibbed: number): number | null {
  if (processed === 0) return null;
  return Math.min(100, Math.max(0, Math.round(((processed - unbibbed) / processed) * 100)));
}
