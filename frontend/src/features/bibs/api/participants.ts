import { eventsApi } from "@dorsal/shared/contract/events";
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";

export const participantsPageSize = 50;

/** Under the event's key: a re-index or an event change refreshes it too. */
export const participantsKey = (eventId: number) => ["events", eventId, "participants"] as const;

export const participantsQueryOptions = (eventId: number) =>
  infiniteQueryOptions({
    queryKey: participantsKey(eventId),
    queryFn: ({ pageParam, signal }) =>
      apiCall(eventsApi.participants, {
        params: { id: eventId },
        query: { limit: participantsPageSize, cursor: pageParam ?? undefined },
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
    // Photo counts move with processing and every bib edit: opening the screen reloads them.
    staleTime: 0,
  });

export function useParticipants(eventId: number) {
  return useInfiniteQuery(participantsQueryOptions(eventId));
}

/** The file goes as it is: the server reads its encoding (UTF-8 or Excel's Windows-1252) and every line. */
export function useImportStartList(eventId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append("file", file, file.name);
      return apiCall(eventsApi.importParticipants, { params: { id: eventId }, body: form });
    },
    // The screen lists the file's refused lines under the server's reason.
    meta: { errorToast: false },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: participantsKey(eventId) }),
  });
}

export function useDeleteStartList(eventId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall(eventsApi.removeParticipants, { params: { id: eventId } }),
    meta: { errorTitle: "No se pudo borrar la lista" },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: participantsKey(eventId) }),
  });
}
