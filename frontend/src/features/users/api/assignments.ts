import type { AssignEventRequest, EventAssignmentDto } from "@dorsal/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-fetch";
import { usersKey, useUsersMutation } from "./users";

export function getAssignments(userId: string, signal?: AbortSignal): Promise<EventAssignmentDto[]> {
  return apiFetch<EventAssignmentDto[]>(`/api/users/${encodeURIComponent(userId)}/events`, { signal });
}

export const assignmentsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: [...usersKey, userId, "events"],
    queryFn: ({ signal }) => getAssignments(userId, signal),
  });

export function useAssignments(userId: string) {
  return useQuery(assignmentsQueryOptions(userId));
}

export const useAssignEvent = () =>
  useUsersMutation(({ userId, ...input }: AssignEventRequest & { userId: string }) =>
    apiFetch(`/api/users/${encodeURIComponent(userId)}/events`, { method: "POST", body: input }),
  );

export const useUnassignEvent = () =>
  useUsersMutation(({ userId, eventId }: { userId: string; eventId: number }) =>
    apiFetch(`/api/users/${encodeURIComponent(userId)}/events/${eventId}`, { method: "DELETE" }),
  );
