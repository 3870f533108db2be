import { accountAuthApi, accountSalesApi } from "@dorsal/shared/contract/account";
import { authApi } from "@dorsal/shared/contract/auth";
import { skipToken, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";

const accountKey = ["account"] as const;

/** The account as the server has it now: verification happens in an email, outside this session. */
export function useAccount() {
  return useQuery({
    queryKey: [...accountKey, "me"],
    queryFn: ({ signal }) => apiCall(authApi.me, { signal }),
    select: (answer) => answer.user,
  });
}

/** The verified account's paid purchases, newest first, 20 at a time. */
export function usePurchases(verified: boolean) {
  return useInfiniteQuery({
    queryKey: [...accountKey, "purchases"],
    initialPageParam: undefined as string | undefined,
    queryFn: verified
      ? ({ pageParam, signal }) => apiCall(accountSalesApi.purchases, { query: { cursor: pageParam }, signal })
      : skipToken,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useCodes(verified: boolean) {
  return useQuery({
    queryKey: [...accountKey, "codes"],
    queryFn: verified ? ({ signal }) => apiCall(accountSalesApi.codes, { signal }) : skipToken,
    select: (answer) => answer.codes,
  });
}

export function useResendVerification() {
  return useMutation({ mutationFn: () => apiCall(accountAuthApi.sendVerification) });
}

export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => apiCall(accountAuthApi.verifyEmail, { body: { token } }),
    meta: { errorToast: false },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKey }),
  });
}

/** 'Enviar enlace a mi correo': a fresh download link to the account's address; older ones stop working. */
export function useSendPurchaseLink() {
  return useMutation({
    mutationFn: (saleId: string) => apiCall(accountSalesApi.purchaseLink, { params: { saleId } }),
  });
}
