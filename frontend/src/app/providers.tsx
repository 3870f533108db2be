import { ChakraProvider } from "@chakra-ui/react";
import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useEffect } from "react";
import { BrowserRouter } from "react-router";
import { Toaster } from "../components/ui/toaster";
import { session } from "../lib/session";
import { AppErrorBoundary } from "./error-boundary";
import { queryClient } from "./query-client";
import { system } from "./theme";

export function AppProviders({ children }: { children: ReactNode }) {
  // Data fetched with one session (logout, expired token, another account) must never be shown
  // to the next one.
  useEffect(() => {
    let token = session.get()?.token;
    return session.subscribe(() => {
      const next = session.get()?.token;
      if (next !== token) queryClient.getQueryCache().clear();
      token = next;
    });
  }, []);

  return (
    <ChakraProvider value={system}>
      <AppErrorBoundary>
        <QueryClientProvider client={queryClient}>
          <BrowserRouter>{children}</BrowserRouter>
          <Toaster />
        </QueryClientProvider>
      </AppErrorBoundary>
    </ChakraProvider>
  );
}
