import type { BibPhotoPage, DorsalPage, PublicEventDto } from "@dorsal/shared";
import { limits } from "@dorsal/shared";
import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-fetch";

/**
 * The browsing endpoints, for paid events (/search) and free ones (/free-photos): both are paged by
 * the API, so a phone never loads an event's whole bib list or a bib's every photo at once.
 */
export type Catalogue = "paid" | "free";

const paths = {
  paid: {
    events: "/api/events/all-with-photos",
    dorsals: (eventId: number) => `/api/events/${eventId}/dorsals/all`,
    photos: (eventId: number, dorsal: string) => `/api/events/${eventId}/photos/${encodeURIComponent(dorsal)}/all`,
  },
  free: {
    events: "/api/free-events",
    dorsals: (eventId: number) => `/api/free-events/${eventId}/dorsals`,
    photos: (eventId: number, dorsal: string) => `/api/free-events/${eventId}/photos/${encodeURIComponent(dorsal)}`,
  },
} as const;

export function useBrowsableEvents(catalogue: Catalogue) {
  return useQuery({
    queryKey: ["browse", catalogue, "events"],
    queryFn: ({ signal }) => apiFetch<PublicEventDto[]>(paths[catalogue].events, { signal }),
  });
}

export function useDorsalPage(catalogue: Catalogue, eventId: number, page: number) {
  return useQuery({
    queryKey: ["browse", catalogue, "dorsals", eventId, page],
    queryFn: ({ signal }) => apiFetch<DorsalPage>(`${paths[catalogue].dorsals(eventId)}?page=${page}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** A bib's photos, 12 at a time (spec §9: the first 12, then '+N más' asks for the next page). */
export function useBibPhotos(catalogue: Catalogue, eventId: number, dorsal: string) {
  return useInfiniteQuery({
    queryKey: ["browse", catalogue, "photos", eventId, dorsal],
    initialPageParam: "0",
    queryFn: ({ pageParam, signal }) =>
      apiFetch<BibPhotoPage>(
        `${paths[catalogue].photos(eventId, dorsal)}?${new URLSearchParams({
          cursor: pageParam,
          limit: String(limits.photosPreviewCount),
        })}`,
        { signal },
      ),
    getNextPageParam: (last) => last.nextCursor,
  });
}
