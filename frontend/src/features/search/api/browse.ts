import { limits, type SearchMode } from "@dorsal/shared";
import { browseApi } from "@dorsal/shared/contract/browse";
import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";

/**
 * The browsing endpoints, for paid events (/search) and free ones (/free-photos): both are paged by
 * the API, so a phone never loads an event's whole bib list or a bib's every photo at once.
 */
export type Catalogue = "paid" | "free";

export function useBrowsableEvents(catalogue: Catalogue) {
  return useQuery({
    queryKey: ["browse", catalogue, "events"],
    queryFn: ({ signal }) => apiCall(catalogue === "paid" ? browseApi.events : browseApi.freeEvents, { signal }),
  });
}

export function useDorsalPage(catalogue: Catalogue, eventId: number, page: number) {
  return useQuery({
    queryKey: ["browse", catalogue, "dorsals", eventId, page],
    queryFn: ({ signal }) =>
      catalogue === "paid"
        ? apiCall(browseApi.dorsals, { params: { id: eventId }, query: { page }, signal })
        : apiCall(browseApi.freeDorsals, { params: { eventId }, query: { page }, signal }),
    placeholderData: keepPreviousData,
  });
}

/**
 * A bib's photos, 12 at a time (spec §9: the first 12, then '+N más' asks for the next page); an
 * admin's search asks for them in `mode` (spec §2.6).
 */
export function useBibPhotos(catalogue: Catalogue, eventId: number, dorsal: string, mode: SearchMode = "participant") {
  return useInfiniteQuery({
    queryKey: ["browse", catalogue, "photos", eventId, dorsal, mode],
    initialPageParam: "0",
    queryFn: ({ pageParam, signal }) => {
      const query = { cursor: pageParam, limit: limits.photosPreviewCount };
      return catalogue === "paid"
        ? apiCall(browseApi.photos, { params: { id: eventId, dorsal }, query: { ...query, mode }, signal })
        : apiCall(browseApi.freePhotos, { params: { eventId, dorsal }, query, signal });
    },
    getNextPageParam: (last) => last.nextCursor,
  });
}
