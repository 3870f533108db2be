import type { CreateUserRequest, UpdateUserRequest } from "@dorsal/shared";
import { usersApi } from "@dorsal/shared/contract/users";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";

/** Every query of this feature starts with it, so one invalidation refreshes the list and the dialogs. */
export const usersKey = ["users"] as const;

const pageSize = 50;

/** The accounts, newest first, a page at a time ('Cargar más' follows the server's cursor). */
export function useUsers() {
  return useInfiniteQuery({
    queryKey: usersKey,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      apiCall(usersApi.list, { query: { limit: pageSize, cursor: pageParam ?? undefined }, signal }),
    getNextPageParam: (page) => page.cursor,
  });
}

/** Any change to an account or its events shows in the list and the dialogs: the whole feature is refreshed. */
export function useUsersMutation<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKey }),
  });
}

export const useCreateUser = () => useUsersMutation((body: CreateUserRequest) => apiCall(usersApi.create, { body }));

export const useUpdateUser = () =>
  useUsersMutation(({ userId, ...body }: UpdateUserRequest & { userId: string }) =>
    apiCall(usersApi.update, { params: { id: userId }, body }),
  );

export const useDeleteUser = () =>
  useUsersMutation((userId: string) => apiCall(usersApi.remove, { params: { id: userId } }));
