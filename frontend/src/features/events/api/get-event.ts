import type { EventDto } from "@dorsal/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-fetch";

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
