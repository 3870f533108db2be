import type { EventDto } from "@dorsal/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../api-fetch";

export function getEvents(signal?: AbortSignal): Promise<EventDto[]> {
  return apiFetch<EventDto[]>("/api/events", { signal });
}

export const eventsQueryOptions = () =>
  queryOptions({
    queryKey: ["events"],
    queryFn: ({ signal }) => getEvents(signal),
  });

export function useEvents() {
  return useQuery(eventsQueryOptions());
}

/** Spec §2.3/§2.5: an admin's pickers start on the newest event, which has the highest id. */
export function newestEvent(events: EventDto[]): EventDto | undefined {
  return events.reduce<EventDto | undefined>(
    (newest, event) => (!newest || event.id > newest.id ? event : newest),
    undefined,
  );
}

export function getEvent(eventId: number, signal?: AbortSignal): Promise<EventDto> {
  return apiFetch<EventDto>(`/api/events/${eventId}`, { signal });
}

export const eventQueryOptions = (eventId: number) =>
  queryOptions({
    queryKey: ["events", eventId],
    queryFn: ({ signal }) => getEvent(eventId, signal),
  });

export function useEvent(eventId: number, options: { refetchInterval?: number | false } = {}) {
  return useQuery({ ...eventQueryOptions(eventId), ...options });
}
