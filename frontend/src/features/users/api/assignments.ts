import { type AssignEventRequest, api } from "@dorsal/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";
import { usersKey, useUsersMutation } from "./users";

export function useAssignments(userId: string) {
  return useQuery(
    queryOptions({
      queryKey: [...usersKey, userId, "events"],
      queryFn: ({ signal }) => apiCall(api.users.events, { params: { id: userId }, signal }),
    }),
  );
}

export const useAssignEvent = () =>
  useUsersMutation(({ userId, ...body }: AssignEventRequest & { userId: string }) =>
    apiCall(api.users.assignEvent, { params: { id: userId }, body }),
  );

export const useUnassignEvent = () =>
  useUsersMutation(({ userId, eventId }: { userId: string; eventId: number }) =>
    apiCall(api.users.unassignEvent, { params: { id: userId, eventId } }),
  );
