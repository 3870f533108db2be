import {
  type ApplicationStatus,
  type ApprovedApplicationResponse,
  applicationMessages,
  type PhotographerApplicationCreated,
  type PhotographerApplicationDto,
  type PhotographerApplicationPage,
  type PhotographerApplicationRequest,
} from "@dorsal/shared";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-fetch";

const pageSize = 25;

/** The public form ('Soy fotógrafo'): sent without the session, as a visitor would. */
export function submitApplication(input: PhotographerApplicationRequest): Promise<PhotographerApplicationCreated> {
  return apiFetch<PhotographerApplicationCreated>("/api/photographer-applications", {
    method: "POST",
    body: input,
    anonymous: true,
  });
}

export function useSubmitApplication() {
  return useMutation({ mutationFn: submitApplication, meta: { errorTitle: applicationMessages.submitFailed } });
}

export function getApplications(
  options: { status?: ApplicationStatus | undefined; cursor?: string | null },
  signal?: AbortSignal,
): Promise<PhotographerApplicationPage> {
  const query = new URLSearchParams({ limit: String(pageSize) });
  if (options.status) query.set("status", options.status);
  if (options.cursor) query.set("cursor", options.cursor);
  return apiFetch<PhotographerApplicationPage>(`/api/admin/photographer-applications?${query}`, { signal });
}

export const applicationsKey = ["photographer-applications"] as const;

/** Newest first, one status or all; 'Cargar más' follows the server's cursor. */
export function useApplications(status: ApplicationStatus | undefined) {
  return useInfiniteQuery({
    queryKey: [...applicationsKey, status ?? "all"],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => getApplications({ status, cursor: pageParam }, signal),
    getNextPageParam: (page) => page.cursor,
  });
}

export function approveApplication(id: string, eventId: number): Promise<ApprovedApplicationResponse> {
  return apiFetch<ApprovedApplicationResponse>(`/api/admin/photographer-applications/${id}/approve`, {
    method: "POST",
    body: { eventId },
  });
}

export function rejectApplication(id: string, adminNotes: string): Promise<PhotographerApplicationDto> {
  return apiFetch<PhotographerApplicationDto>(`/api/admin/photographer-applications/${id}/reject`, {
    method: "POST",
    body: { adminNotes },
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
    (variables: { id: string; eventId: number }) => approveApplication(variables.id, variables.eventId),
    "No se pudo aprobar la aplicación",
  );

export const useRejectApplication = () =>
  useReviewMutation(
    (variables: { id: string; adminNotes: string }) => rejectApplication(variables.id, variables.adminNotes),
    "No se pudo rechazar la aplicación",
  );
