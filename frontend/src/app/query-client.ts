import { MutationCache, QueryClient } from "@tanstack/react-query";
import { toaster } from "../components/ui/toaster";
import { mutationErrorToast } from "../lib/mutation-errors";

/** Spec §9: cache freshness 5 minutes, no retries, no refetch on window focus, no polling by default. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 5 * 60 * 1000,
      retry: false,
      refetchOnWindowFocus: false,
    },
    mutations: { retry: false },
  },
  // Every failed mutation is reported here, as its `meta` says, so no screen can forget to; this
  // runs even when the component that started it has unmounted meanwhile.
  mutationCache: new MutationCache({
    onError: (error, _variables, _result, mutation) => {
      const toast = mutationErrorToast(error, mutation.meta);
      if (toast) toaster.create({ type: "error", ...toast });
    },
  }),
});
