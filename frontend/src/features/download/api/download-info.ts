import { browseApi } from "@dorsal/shared/contract/browse";
import { salesApi } from "@dorsal/shared/contract/sales";
import { skipToken, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";

/** Spec §2.6: a pending payment is checked again every 3 s until the gateway settles it. */
export const pendingPollMs = 3000;

const downloadInfoKey = (token: string) => ["sales", "download", token] as const;

/**
 * The download link's info. `transactionId` is what the gateway appended on the way back: with it
 * the server looks the payment up itself, so the page can show the photos as soon as it is paid.
 */
export function useDownloadInfo(token: string, transactionId: string | null) {
  return useQuery({
    queryKey: [...downloadInfoKey(token), transactionId],
    queryFn: ({ signal }) =>
      apiCall(salesApi.download, { params: { token }, query: { id: transactionId ?? undefined }, signal }),
    refetchInterval: (current) => (current.state.data?.status === "pending" ? pendingPollMs : false),
    staleTime: 0,
  });
}

/** Reads the link's info again, so the downloads left are the server's right after a download. */
export function useRefreshDownloadInfo(token: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: downloadInfoKey(token) });
}

/** The photos of a purchase that was not paid, as the public sees them (watermarked): the kept cart. */
export function useCartPhotos(photoIds: string[] | null) {
  return useQuery({
    queryKey: ["photos", "by-ids", photoIds],
    queryFn: photoIds ? ({ signal }) => apiCall(browseApi.photosByIds, { body: { photoIds }, signal }) : skipToken,
  });
}

/** 'Reintentar pago': a new checkout for the same photos, at the amount the page shows. */
export function useRetryPayment(token: string) {
  return useMutation({
    mutationFn: (amount: number) => apiCall(salesApi.retry, { params: { token }, body: { amount } }),
    onSuccess: (response) => window.location.assign(response.paymentUrl),
    // The declined payment's card says why the retry failed.
    meta: { errorToast: false },
  });
}
