import type { AssignEventRequest } from "@dorsal/shared";
import { usersApi } from "@dorsal/shared/contract/users";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";
import { usersKey, useUsersMutation } from "./users";

export function useAssignments(userId: string) {
  return useQuery(
    queryOptions({
      queryKey: [...usersKey, userId, "events"],
      queryFn: ({ signal }) => apiCall(usersApi.events, { params: { id: userId }, signal }),
    }),
  );
}

export const useAssignEvent = () =>
  useUsersMutation(({ userId, ...body }: AssignEventRequest & { userId: string }) =>
    apiCall(usersApi.assignEvent, { params: { id: userId }, body }),
  );

export const useUnassignEvent = () =>
  useUsersMutation(({ userId, eventId }: { userId: string; eventId: number }) =>
    apiCall(usersApi.unassignEvent, { params: { id: userId, eventId } }),
  );
