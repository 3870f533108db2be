import type { PhotoDto } from "@dorsal/shared";
import { photosApi } from "@dorsal/shared/contract/photos";
import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";
import { dashboardStatsQueryOptions } from "../../../lib/queries/dashboard-stats";
import { eventPhotosKey } from "./get-event-photos";
import { type PhotoPages, replacePhoto } from "./photo-pages";

export function addBib(eventId: number, photoId: string, dorsalNumber: string) {
  return apiCall(photosApi.addBib, { params: { id: eventId, photoId }, body: { dorsalNumber } });
}

export function removeBib(eventId: number, photoId: string, dorsalNumber: string) {
  return apiCall(photosApi.removeBib, { params: { id: eventId, photoId, dorsal: dorsalNumber } });
}

/** One of a read's suggested listed bibs becomes a manual bib, and the read is set aside. */
export function acceptSuggestion(eventId: number, photoId: string, read: string, dorsalNumber: string) {
  return apiCall(photosApi.acceptSuggestion, { params: { id: eventId, photoId }, body: { read, dorsalNumber } });
}

/**
 * The card shows the server's answer at once. The lists are only marked stale, not reloaded:
 * a photo just tagged under 'Sin dorsal' stays in view (with its new bib) until the organizer
 * switches tabs or reloads, instead of vanishing under their cursor. Search and the dashboard's
 * bib count change too.
 */
async function showUpdatedPhoto(queryClient: QueryClient, photo: PhotoDto): Promise<void> {
  queryClient.setQueriesData<PhotoPages>({ queryKey: eventPhotosKey(photo.eventId) }, (data) =>
    replacePhoto(data, photo),
  );
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: eventPhotosKey(photo.eventId), refetchType: "none" }),
    queryClient.invalidateQueries({ queryKey: ["photos", "search"] }),
    queryClient.invalidateQueries({ queryKey: dashboardStatsQueryOptions().queryKey }),
  ]);
}

/** Adding and removing serve two actions each (add and undo; remove and dismiss): the screen words each failure. */
export function useAddBib(eventId: number, photoId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (dorsalNumber: string) => addBib(eventId, photoId, dorsalNumber),
    meta: { errorToast: false },
    onSuccess: (photo) => showUpdatedPhoto(queryClient, photo),
  });
}

export function useRemoveBib(eventId: number, photoId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (dorsalNumber: string) => removeBib(eventId, photoId, dorsalNumber),
    meta: { errorToast: false },
    onSuccess: (photo) => showUpdatedPhoto(queryClient, photo),
  });
}

export function useAcceptSuggestion(eventId: number, photoId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ read, dorsalNumber }: { read: string; dorsalNumber: string }) =>
      acceptSuggestion(eventId, photoId, read, dorsalNumber),
    meta: { errorTitle: "No se pudo aceptar la sugerencia" },
    onSuccess: (photo) => showUpdatedPhoto(queryClient, photo),
  });
}
