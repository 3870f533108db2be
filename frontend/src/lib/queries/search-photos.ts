import type { SearchResponse } from "@dorsal/shared";
import { skipToken, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../api-fetch";

export interface PhotoSearch {
  eventId: number;
  dorsalNumber: string;
}

export function searchPhotos({ eventId, dorsalNumber }: PhotoSearch, signal?: AbortSignal): Promise<SearchResponse> {
  const query = new URLSearchParams({ eventId: String(eventId), dorsalNumber });
  return apiFetch<SearchResponse>(`/api/photos/search?${query}`, { signal });
}

export const searchPhotosQueryKey = (search: PhotoSearch | null) => ["photos", "search", search] as const;

export function useSearchPhotos(search: PhotoSearch | null) {
  return useQuery({
    queryKey: searchPhotosQueryKey(search),
    queryFn: search ? ({ signal }) => searchPhotos(search, signal) : skipToken,
  });
}
