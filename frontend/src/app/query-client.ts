import { QueryClient } from "@tanstack/react-query";

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
});
