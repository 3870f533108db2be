import { photosApi } from "@dorsal/shared/contract/photos";
import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";

/** The API's list filters; 'Sin dorsal' is computed by the server, never in the browser. */
export type PhotoFilter = "sin-dorsal" | "todas";

export const photosPageSize = 48;

export function getEventPhotos(eventId: number, filter: PhotoFilter, cursor: string | null, signal?: AbortSignal) {
  return apiCall(photosApi.eventPhotos, {
    params: { id: eventId },
    query: { filter, limit: photosPageSize, cursor: cursor ?? undefined },
    signal,
  });
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
