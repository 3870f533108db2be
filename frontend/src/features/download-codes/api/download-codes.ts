import type { GenerateDownloadCodeRequest } from "@dorsal/shared";
import { codesApi } from "@dorsal/shared/contract/codes";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";

const issuedCodesQueryOptions = (eventId: number) =>
  queryOptions({
    queryKey: ["download-codes", eventId],
    queryFn: ({ signal }) => apiCall(codesApi.list, { query: { eventId }, signal }),
  });

export function useIssuedCodes(eventId: number) {
  return useQuery(issuedCodesQueryOptions(eventId));
}

export function useGenerateDownloadCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: GenerateDownloadCodeRequest) => apiCall(codesApi.generate, { body }),
    // A refusal may be a question for the admin (409, shown on the form) rather than an error.
    meta: { errorToast: false },
    onSuccess: (result) =>
      queryClient.invalidateQueries({ queryKey: issuedCodesQueryOptions(result.eventId).queryKey }),
  });
}
