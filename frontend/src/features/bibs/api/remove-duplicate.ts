import { photosApi } from "@dorsal/shared/contract/photos";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";
import { eventPhotosKey } from "./get-event-photos";
import type { PhotoPages } from "./photo-pages";

export function removeDuplicate(eventId: number, photoId: string) {
  return apiCall(photosApi.removeDuplicate, { params: { id: eventId, photoId } });
}

function withoutPhoto(data: PhotoPages | undefined, photoId: string): PhotoPages | undefined {
  if (!data) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, photos: page.photos.filter((p) => p.id !== photoId) })),
  };
}

/**
 * Removes a duplicate record: it leaves the lists at once, and the event's figures (its total
 * counted the copy) are read again.
 */
export function useRemoveDuplicate(eventId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (photoId: string) => removeDuplicate(eventId, photoId),
    meta: { errorTitle: "No se pudo quitar la foto" },
    onSuccess: async ({ photoId }) => {
      queryClient.setQueriesData<PhotoPages>({ queryKey: eventPhotosKey(eventId) }, (data) =>
        withoutPhoto(data, photoId),
      );
      await queryClient.invalidateQueries({ queryKey: ["events", eventId], exact: true });
    },
  });
}
