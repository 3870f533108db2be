import type { DownloadCodeResult, GenerateDownloadCodeRequest, IssuedDownloadCode } from "@dorsal/shared";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-fetch";

export function generateDownloadCode(request: GenerateDownloadCodeRequest): Promise<DownloadCodeResult> {
  return apiFetch<DownloadCodeResult>("/api/admin/generate-download-code", { method: "POST", body: request });
}

export function getIssuedCodes(eventId: number, signal?: AbortSignal): Promise<IssuedDownloadCode[]> {
  return apiFetch<IssuedDownloadCode[]>(`/api/admin/download-codes?eventId=${eventId}`, { signal });
}

export const issuedCodesQueryOptions = (eventId: number) =>
  queryOptions({
    queryKey: ["download-codes", eventId],
    queryFn: ({ signal }) => getIssuedCodes(eventId, signal),
  });

export function useIssuedCodes(eventId: number) {
  return useQuery(issuedCodesQueryOptions(eventId));
}

export function useGenerateDownloadCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateDownloadCode,
    // A refusal may be a question for the admin (409, shown on the form) rather than an error.
    meta: { errorToast: false },
    onSuccess: (result) =>
      queryClient.invalidateQueries({ queryKey: issuedCodesQueryOptions(result.eventId).queryKey }),
  });
}
