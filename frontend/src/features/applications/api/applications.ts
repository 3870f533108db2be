import {
  type ApplicationStatus,
  applicationMessages,
  type PhotographerApplicationRequest,
} from "@dorsal/shared/applications";
import { applicationsApi } from "@dorsal/shared/contract/applications";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";

const pageSize = 25;

export function useSubmitApplication() {
  return useMutation({
    // The public form ('Soy fotógrafo'): sent without the session, as a visitor would.
    mutationFn: (body: PhotographerApplicationRequest) => apiCall(applicationsApi.submit, { body, anonymous: true }),
    meta: { errorTitle: applicationMessages.submitFailed },
  });
}

export const applicationsKey = ["photographer-applications"] as const;

/** Newest first, one status or all; 'Cargar más' follows the server's cursor. */
export function useApplications(status: ApplicationStatus | undefined) {
  return useInfiniteQuery({
    queryKey: [...applicationsKey, status ?? "all"],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      apiCall(applicationsApi.list, { query: { limit: pageSize, status, cursor: pageParam ?? undefined }, signal }),
    getNextPageParam: (page) => page.cursor,
  });
}

/** A review moves the application between status lists, and an approval adds a user. */
function useReviewMutation<Variables, Result>(
  mutationFn: (variables: Variables) => Promise<Result>,
  errorTitle: string,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    meta: { errorTitle },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: applicationsKey }),
        queryClient.invalidateQueries({ queryKey: ["users"] }),
      ]),
  });
}

export const useApproveApplication = () =>
  useReviewMutation(
    ({ id, eventId }: { id: string; eventId: number }) =>
      apiCall(applicationsApi.approve, { params: { id }, body: { eventId } }),
    "No se pudo aprobar la aplicación",
  );

export const useRejectApplication = () =>
  useReviewMutation(
    ({ id, adminNotes }: { id: string; adminNotes: string }) =>
      apiCall(applicationsApi.reject, { params: { id }, body: { adminNotes } }),
    "No se pudo rechazar la aplicación",
  );
