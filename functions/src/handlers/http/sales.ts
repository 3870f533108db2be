import { cartQuoteRequest, createSaleRequest, idParam, retrySaleRequest } from "@dorsal/shared";
import type { APIGatewayProxyEventV2 } from "aws-lambda";
import { z } from "zod";
import type { Deps } from "../../app/deps";
import { decodeCursor } from "../../app/page-cursor";
import {
  createSale,
  downloadInfo,
  downloadPhoto,
  downloadZip,
  listEventSales,
  quoteCart,
  receivePaymentEvent,
  retrySale,
} from "../../app/sales";
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

/**
 * Where the buyer comes back to after paying. On AWS the site's own domain (requests reach the
 * function through CloudFront, so headers name API Gateway); locally the origin the browser used,
 * so a phone on the LAN comes back to the LAN address.
 */
function siteOrigin(deps: Deps, event: APIGatewayProxyEventV2): string {
  if (deps.config.DORSAL_RUNTIME === "aws") return `https://${deps.config.CLOUDFRONT_DOMAIN}`;
  const origin = event.headers.origin;
  if (origin && URL.canParse(origin)) return new URL(origin).origin;
  return `http://${event.headers.host ?? "localhost"}`;
}

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
      run: async ({ deps, body, event }) => reply(201, await createSale(deps, body, siteOrigin(deps, event))),
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
        reply(201, await retrySale(deps, params.token, body.amount, siteOrigin(deps, event))),
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
