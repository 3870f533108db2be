import type { PhotoPage } from "@dorsal/shared";
import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-fetch";

/** The API's list filters; 'Sin dorsal' is computed by the server, never in the browser. */
export type PhotoFilter = "sin-dorsal" | "todas";

export const photosPageSize = 48;

export function getEventPhotos(
  eventId: number,
  filter: PhotoFilter,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<PhotoPage> {
  const query = new URLSearchParams({ filter, limit: String(photosPageSize) });
  if (cursor) query.set("cursor", cursor);
  return apiFetch<PhotoPage>(`/api/events/${eventId}/photos?${query}`, { signal });
}

/** Under the event's key, so invalidating an event refreshes its photo lists too. */
export const eventPhotosKey = (eventId: number, filter?: PhotoFilter) =>
  filter ? (["events", eventId, "photos", filter] as const) : (["events", eventId, "photos"] as const);

export const eventPhotosQueryOptions = (eventId: number, filter: PhotoFilter) =>
  infiniteQueryOptions({
    queryKey: eventPhotosKey(eventId, filter),
    queryFn: ({ pageParam, signal }) => getEventPhotos(eventId, filter, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
  });

export function useEventPhotos(eventId: number, filter: PhotoFilter) {
  return useInfiniteQuery(eventPhotosQueryOptions(eventId, filter));
}
