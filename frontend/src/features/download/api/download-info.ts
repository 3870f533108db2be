import type { DownloadInfo } from "@dorsal/shared";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-fetch";

/** Spec §2.6: a pending payment is checked again every 3 s until the gateway settles it. */
export const pendingPollMs = 3000;

/**
 * The download link's info. `transactionId` is what the gateway appended on the way back: with it
 * the server looks the payment up itself, so the page can show the photos as soon as it is paid.
 */
export function useDownloadInfo(token: string, transactionId: string | null) {
  const query = transactionId ? `?${new URLSearchParams({ id: transactionId })}` : "";
  return useQuery({
    queryKey: ["sales", "download", token, transactionId],
    queryFn: ({ signal }) =>
      apiFetch<DownloadInfo>(`/api/sales/download/${encodeURIComponent(token)}${query}`, { signal }),
    refetchInterval: (current) => (current.state.data?.status === "pending" ? pendingPollMs : false),
    staleTime: 0,
  });
}
