import { cartQuoteRequest, createSaleRequest, idParam, retrySaleRequest } from "@dorsal/shared";
import { z } from "zod";
import { createSale, quoteCart, retrySale } from "../../app/checkout";
import { decodeCursor } from "../../app/page-cursor";
import { downloadInfo, downloadPhoto, downloadZip } from "../../app/paid-downloads";
import { listEventSales } from "../../app/sales-report";
import { receivePaymentEvent } from "../../app/settlement";
import { getContainer } from "../../compose";
import { createHttpHandler, reply, route } from "../../http/handler";

const tokenParams = z.object({ token: z.string().min(1).max(200) });
const photoParams = tokenParams.extend({ photoId: z.string().min(1).max(64) });
/** Wompi brings the buyer back with `?id=<transactionId>`. */
const downloadQuery = z.object({ id: z.string().min(1).max(100).optional() });
const adminSalesQuery = z.object({
  eventId: idParam,
  cursor: z.string().max(2000).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

export const handler = createHttpHandler(
  {
    "POST /api/sales/quote": route({
      access: "public",
      body: cartQuoteRequest,
      run: ({ deps, body }) => quoteCart(deps, body),
    }),
    "POST /api/sales/create": route({
      access: "public",
      body: createSaleRequest,
      run: async ({ deps, body, event }) => reply(201, await createSale(deps, body, deps.siteOrigin(event.headers))),
    }),
    "GET /api/sales/download/{token}": route({
      access: "public",
      params: tokenParams,
      query: downloadQuery,
      run: ({ deps, params, query }) => downloadInfo(deps, params.token, query.id),
    }),
    "GET /api/sales/download/{token}/photos/{photoId}": route({
      access: "public",
      params: photoParams,
      run: async ({ deps, params }) =>
        reply(302, undefined, { location: await downloadPhoto(deps, params.token, params.photoId) }),
    }),
    "POST /api/sales/download/{token}/zip": route({
      access: "public",
      params: tokenParams,
      run: ({ deps, params }) => downloadZip(deps, params.token),
    }),
    "POST /api/sales/download/{token}/retry": route({
      access: "public",
      params: tokenParams,
      body: retrySaleRequest,
      run: async ({ deps, params, body, event }) =>
        reply(201, await retrySale(deps, params.token, body.amount, deps.siteOrigin(event.headers))),
    }),
    "POST /api/payments/wompi/events": route({
      access: "public",
      body: z.unknown(),
      run: ({ deps, body, event }) => receivePaymentEvent(deps, body, event.headers["x-event-checksum"]),
    }),
    "GET /api/admin/sales": route({
      access: ["admin"],
      query: adminSalesQuery,
      run: ({ deps, query }) =>
        listEventSales(deps, query.eventId, { limit: query.limit, cursor: decodeCursor(query.cursor) }),
    }),
  },
  getContainer,
);
