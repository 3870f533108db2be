import { photosPublicApi } from "@dorsal/shared/contract/photos-public";
import { skipToken, useQuery } from "@tanstack/react-query";
import { apiCall } from "../api-fetch";

export interface PhotoSearch {
  eventId: number;
  dorsalNumber: string;
}

export function searchPhotos({ eventId, dorsalNumber }: PhotoSearch, signal?: AbortSignal) {
  return apiCall(photosPublicApi.search, { query: { eventId, dorsalNumber }, signal });
}

export const searchPhotosQueryKey = (search: PhotoSearch | null) => ["photos", "search", search] as const;

export function useSearchPhotos(search: PhotoSearch | null) {
  return useQuery({
    queryKey: searchPhotosQueryKey(search),
    queryFn: search ? ({ signal }) => searchPhotos(search, signal) : skipToken,
  });
}
