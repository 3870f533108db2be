import { usersApi } from "@dorsal/shared/contract/users";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";

/**
 * The signed-in photographer's own events: the upload screen offers only these. Keyed by the
 * account, since signing out does not empty the cache and another photographer may sign in next.
 */
export const myAssignmentsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: ["my-assignments", userId],
    queryFn: ({ signal }) => apiCall(usersApi.myEvents, { signal }),
  });

/** Asks only for a photographer (`userId` null otherwise). */
export function useMyAssignments(userId: string | null) {
  return useQuery({ ...myAssignmentsQueryOptions(userId ?? ""), enabled: userId !== null });
}
