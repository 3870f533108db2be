import { api } from "@dorsal/shared/contract";
import { accountCodes, accountPurchases, sendPurchaseLink } from "../../app/account";
import { createSale, quoteCart, retrySale } from "../../app/checkout";
import { decodeCursor } from "../../app/page-cursor";
import { downloadInfo, downloadPhoto, downloadZip } from "../../app/paid-downloads";
import { listEventSales, newSaleLink } from "../../app/sales-report";
import { receivePaymentEvent } from "../../app/settlement";
import { getContainer } from "../../compose";
import { createHttpHandler, reply } from "../../http/handler";

export const handler = createHttpHandler(
  api.sales,
  {
    quote: ({ deps, body }) => quoteCart(deps, body),
    create: async ({ deps, body, event }) => reply(201, await createSale(deps, body, deps.siteOrigin(event.headers))),
    download: ({ deps, params, query }) => downloadInfo(deps, params.token, query.id),
    downloadPhoto: async ({ deps, params }) =>
      reply(302, undefined, { location: await downloadPhoto(deps, params.token, params.photoId) }),
    downloadZip: ({ deps, params }) => downloadZip(deps, params.token),
    retry: async ({ deps, params, body, event }) =>
      reply(201, await retrySale(deps, params.token, body.amount, deps.siteOrigin(event.headers))),
    paymentEvent: ({ deps, body, event }) => receivePaymentEvent(deps, body, event.headers["x-event-checksum"]),
    list: ({ deps, query }) =>
      listEventSales(deps, query.eventId, { limit: query.limit, cursor: decodeCursor(query.cursor), query: query.q }),
    newLink: ({ deps, params, body, event }) =>
      newSaleLink(deps, params.saleId, { origin: deps.siteOrigin(event.headers), sendEmail: body.sendEmail }),
    purchases: ({ deps, session, query }) => accountPurchases(deps, session, decodeCursor(query.cursor)),
    purchaseLink: ({ deps, session, params }) => sendPurchaseLink(deps, session, params.saleId),
    codes: ({ deps, session }) => accountCodes(deps, session),
  },
  getContainer,
);
