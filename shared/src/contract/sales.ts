import { z } from "zod";
import { idParam } from "../api";
import {
  type AdminSaleLink,
  type AdminSalePage,
  type CartQuote,
  type CreateSaleResponse,
  cartQuoteRequest,
  createSaleRequest,
  type DownloadInfo,
  type DownloadZip,
  downloadPhotoId,
  newSaleLinkRequest,
  retrySaleRequest,
} from "../sales";
import { accountSalesApi } from "./account";
import { endpoint } from "./endpoint";

const tokenParams = z.object({ token: z.string().min(1).max(200) });
const photoParams = tokenParams.extend({ photoId: downloadPhotoId });
/** Wompi brings the buyer back with `?id=<transactionId>`. */
const downloadQuery = z.object({ id: z.string().min(1).max(100).optional() });
const adminSalesQuery = z.object({
  eventId: idParam,
  cursor: z.string().max(2000).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
  /** Part of the buyer's email or of the reference, any case. */
  q: z.string().trim().max(200).optional(),
});
const saleParams = z.object({ saleId: z.string().regex(/^[a-z0-9]{10,40}$/) });

/** The cart's price, checkout, download links and the payment provider's events (the `sales` function). */
export const salesApi = {
  quote: endpoint<CartQuote>()({ method: "POST", path: "/api/sales/quote", access: "public", body: cartQuoteRequest }),
  create: endpoint<CreateSaleResponse>()({
    method: "POST",
    path: "/api/sales/create",
    access: "public",
    body: createSaleRequest,
  }),
  download: endpoint<DownloadInfo>()({
    method: "GET",
    path: "/api/sales/download/{token}",
    access: "public",
    params: tokenParams,
    query: downloadQuery,
  }),
  /** Answers 302 to a short-lived signed URL of the original. */
  downloadPhoto: endpoint<undefined>()({
    method: "GET",
    path: "/api/sales/download/{token}/photos/{photoId}",
    access: "public",
    params: photoParams,
  }),
  downloadZip: endpoint<DownloadZip>()({
    method: "POST",
    path: "/api/sales/download/{token}/zip",
    access: "public",
    params: tokenParams,
  }),
  retry: endpoint<CreateSaleResponse>()({
    method: "POST",
    path: "/api/sales/download/{token}/retry",
    access: "public",
    params: tokenParams,
    body: retrySaleRequest,
  }),
  // The provider's own shape, checked by its checksum before anything reads it (app/settlement.ts).
  paymentEvent: endpoint<{ success: true }>()({
    method: "POST",
    path: "/api/payments/wompi/events",
    access: "public",
    body: z.unknown(),
  }),
  list: endpoint<AdminSalePage>()({
    method: "GET",
    path: "/api/admin/sales",
    access: ["admin"],
    query: adminSalesQuery,
  }),
  newLink: endpoint<AdminSaleLink>()({
    method: "POST",
    path: "/api/admin/sales/{saleId}/link",
    access: ["admin"],
    params: saleParams,
    body: newSaleLinkRequest,
  }),
  ...accountSalesApi,
};
