import type { EventDto } from "@dorsal/shared";
import { eventsPublicApi } from "@dorsal/shared/contract/events-public";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiCall } from "../api-fetch";

export const eventsQueryOptions = () =>
  queryOptions({
    queryKey: ["events"],
    queryFn: ({ signal }) => apiCall(eventsPublicApi.list, { signal }),
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

export const eventQueryOptions = (eventId: number) =>
  queryOptions({
    queryKey: ["events", eventId],
    queryFn: ({ signal }) => apiCall(eventsPublicApi.get, { params: { id: eventId }, signal }),
  });

export function useEvent(eventId: number, options: { refetchInterval?: number | false } = {}) {
  return useQuery({ ...eventQueryOptions(eventId), ...options });
}
