import type { CreateUserRequest, PublicUser, UpdateUserRequest, UserListItem } from "@dorsal/shared";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-fetch";

/** Every query of this feature starts with it, so one invalidation refreshes the list and the dialogs. */
export const usersKey = ["users"] as const;

export function getUsers(signal?: AbortSignal): Promise<UserListItem[]> {
  return apiFetch<UserListItem[]>("/api/users", { signal });
}

export const usersQueryOptions = () => queryOptions({ queryKey: usersKey, queryFn: ({ signal }) => getUsers(signal) });

export function useUsers() {
  return useQuery(usersQueryOptions());
}

/** Any change to an account or its events shows in the list and the dialogs: the whole feature is refreshed. */
export function useUsersMutation<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKey }),
  });
}

export function createUser(input: CreateUserRequest): Promise<{ success: true; user: PublicUser }> {
  return apiFetch("/api/users", { method: "POST", body: input });
}

export const useCreateUser = () => useUsersMutation(createUser);

export function updateUser({
  userId,
  ...input
}: UpdateUserRequest & { userId: string }): Promise<{ success: true; user: PublicUser }> {
  return apiFetch(`/api/users/${encodeURIComponent(userId)}`, { method: "PUT", body: input });
}

export const useUpdateUser = () => useUsersMutation(updateUser);

export function deleteUser(userId: string): Promise<{ success: true }> {
  return apiFetch(`/api/users/${encodeURIComponent(userId)}`, { method: "DELETE" });
}

export const useDeleteUser = () => useUsersMutation(deleteUser);
