import { createHash, randomBytes } from "node:crypto";
import {
  type CartQuote,
  type CreateSaleResponse,
  cartPrice,
  type cartQuoteRequest,
  type createSaleRequest,
  type DownloadInfo,
  type DownloadZip,
  messages,
  salesMessages,
} from "@dorsal/shared";
import type { z } from "zod";
import type { PageCursor } from "../data/photos";
import { type SaleRecord, saleDownloadGrant, salesMonthOf } from "../data/sales";
import type { PaymentTransaction } from "../ports/payments";
import type { Deps } from "./deps";
import { conflict, forbidden, gone, invalid, notFound, unauthenticated, unavailable } from "./errors";
import { downloadablePhotos, signedOriginalUrl } from "./original-download";
import { zipOfOriginals } from "./original-zip";
import { encodeCursor } from "./page-cursor";

/**
 * The money path (docs/payments.md): a cart priced by the server, a pending sale behind a hosted
 * checkout, payment events and lookups that settle it, and a download link that counts each
 * download of each photo. The buyer's redirect back is only a hint: a sale becomes paid through a
 * verified event or a lookup the server makes itself.
 */

type QuoteInput = z.output<typeof cartQuoteRequest>;
type SaleInput = z.output<typeof createSaleRequest>;

/** The checkout stops taking the payment after this; a sale with no transaction by then is abandoned. */
const checkoutMinutes = 30;
const referencePrefix = "DOR-";
const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

interface PricedCart {
  quote: CartQuote;
  validityDays: number;
  maxDownloads: number;
}

/**
 * What a cart costs:
 * 1. the event exists and is not free;
 * 2. every photo is a processed photo of that event;
 * 3. the event's own tiers when an admin saved them (COP only: the gateway takes nothing else),
 *    else spec §9's bundles over the system photo price.
 */
async function priceCart(deps: Deps, request: QuoteInput): Promise<PricedCart> {
  const event = await deps.events.get(request.eventId);
  if (!event) throw notFound(messages.eventNotFound);
  if (event.freePhotosEnabled) throw conflict(salesMessages.eventIsFree);
  const photos = await deps.photos.getMany(request.photoIds);
  const available = photos.filter((photo) => photo.eventId === event.id && photo.processingStatus === "successful");
  if (available.length !== request.photoIds.length) throw invalid(salesMessages.photosNotOfEvent);
  const [pricing, settings, bibPhotoCount] = await Promise.all([
    deps.pricing.get(event.id),
    deps.settings.get(),
    photosOfBib(deps, event.id, request.dorsalNumber, request.photoIds),
  ]);
  if (pricing.configured && pricing.currency !== "COP") throw invalid(salesMessages.currencyNotSupported);
  const count = request.photoIds.length;
  const price = cartPrice({
    count,
    bibPhotoCount,
    photoPrice: settings.photoPrice,
    eventPricing: pricing.configured ? pricing : null,
  });
  return {
    quote: { eventId: event.id, count, ...price, currency: "COP" },
    validityDays: pricing.configured ? pricing.downloadValidityDays : settings.downloadValidityDays,
    maxDownloads: settings.maxDownloads,
  };
}

/**
 * How many processed photos the bib has, for the all-of-the-bib bundle; null when no bib was given
 * or the cart holds photos of other bibs (the bundle is for the bib's own photos, not any cart of
 * the same size).
 */
async function photosOfBib(
  deps: Deps,
  eventId: number,
  bib: string | undefined,
  chosen: readonly string[],
): Promise<number | null> {
  if (!bib) return null;
  const ofBib = (await deps.photos.getMany(await deps.photos.photoIdsForBib(eventId, bib))).filter(
    (photo) => photo.processingStatus === "successful",
  );
  const ids = new Set(ofBib.map((photo) => photo.id));
  return chosen.every((id) => ids.has(id)) ? ofBib.length : null;
}

export async function quoteCart(deps: Deps, request: QuoteInput): Promise<CartQuote> {
  return (await priceCart(deps, request)).quote;
}

/**
 * Checkout:
 * 1. price the cart again on the server; a different figure than the buyer saw is refused (409);
 * 2. draw the download token (32 random bytes); only its SHA-256 is stored;
 * 3. sign the gateway's checkout URL, which brings the buyer back to /download with the token;
 * 4. store the pending sale (it joins the reconciliation list).
 */
export async function createSale(deps: Deps, request: SaleInput, origin: string): Promise<CreateSaleResponse> {
  const { quote, validityDays, maxDownloads } = await priceCart(deps, request);
  if (request.amount !== undefined && request.amount !== quote.total) throw conflict(salesMessages.priceChanged);
  const now = deps.clock.now();
  const id = deps.ids.newId();
  const token = randomBytes(32).toString("base64url");
  const sale: SaleRecord = {
    id,
    reference: `${referencePrefix}${id}`,
    eventId: request.eventId,
    dorsalNumber: request.dorsalNumber ?? null,
    photoIds: request.photoIds,
    amount: quote.total,
    currency: "COP",
    customerEmail: request.customerEmail,
    customerName: request.customerName,
    status: "pending",
    tokenHash: hashToken(token),
    maxDownloads,
    validityDays,
    createdAt: now.toISOString(),
    checkoutExpiresAt: new Date(now.getTime() + checkoutMinutes * 60_000).toISOString(),
    paidAt: null,
    expiresAt: null,
    transactionId: null,
    paymentMethod: null,
    statusMessage: null,
    updatedAt: now.toISOString(),
  };
  let paymentUrl: string;
  try {
    paymentUrl = await deps.payments.checkoutUrl({
      reference: sale.reference,
      amountInCents: sale.amount * 100,
      currency: "COP",
      redirectUrl: `${origin}/download?token=${token}`,
      customerEmail: sale.customerEmail,
      customerName: sale.customerName,
      expirationTime: new Date(sale.checkoutExpiresAt),
    });
  } catch (error) {
    deps.logger.error("payment gateway unavailable", error);
    throw unavailable(salesMessages.gatewayUnavailable);
  }
  if (!(await deps.sales.create(sale))) throw new Error(`Download token or sale id collision for sale ${id}`);
  return { saleId: id, reference: sale.reference, amount: sale.amount, paymentUrl };
}

async function saleByReference(deps: Deps, reference: string): Promise<SaleRecord | undefined> {
  if (!reference.startsWith(referencePrefix)) return undefined;
  const sale = await deps.sales.get(reference.slice(referencePrefix.length));
  return sale?.reference === reference ? sale : undefined;
}

const matchesSale = (sale: SaleRecord, transaction: PaymentTransaction) =>
  transaction.reference === sale.reference &&
  transaction.currency === sale.currency &&
  transaction.amountInCents === sale.amount * 100;

/**
 * Settles a sale by what the provider says of one of its transactions. Each change is one
 * conditional update, so repeating it (a redelivered event, an event racing a lookup) changes
 * nothing; PENDING changes nothing either. "mismatch" when the transaction is not this sale's
 * (another amount or currency, or it already settled another sale): then nothing changes at all.
 */
async function applyTransaction(
  deps: Deps,
  sale: SaleRecord,
  transaction: PaymentTransaction,
): Promise<SaleRecord | "mismatch"> {
  if (!matchesSale(sale, transaction)) {
    deps.logger.warn("payment does not match its sale; ignored", {
      saleId: sale.id,
      transactionId: transaction.id,
      amountInCents: transaction.amountInCents,
      currency: transaction.currency,
    });
    return "mismatch";
  }
  if (transaction.status !== "PENDING" && !(await deps.sales.claimTransaction(transaction.id, sale.id))) {
    deps.logger.warn("payment already settled another sale; ignored", {
      saleId: sale.id,
      transactionId: transaction.id,
    });
    return "mismatch";
  }
  const settlement = {
    transactionId: transaction.id,
    paymentMethod: transaction.paymentMethodType,
    statusMessage: transaction.statusMessage,
    at: deps.clock.now(),
  };
  const changed =
    transaction.status === "APPROVED"
      ? await deps.sales.markPaid(sale, settlement)
      : transaction.status === "DECLINED"
        ? await deps.sales.markUnpaid(sale, "declined", settlement)
        : transaction.status === "ERROR"
          ? await deps.sales.markUnpaid(sale, "error", settlement)
          : transaction.status === "VOIDED"
            ? await deps.sales.markVoided(sale, settlement)
            : undefined;
  return changed ?? (await deps.sales.get(sale.id)) ?? sale;
}

/**
 * POST /api/payments/wompi/events: only an event whose checksum verifies, whose environment is
 * ours and whose signed time is recent is read at all (401 otherwise); one whose amount or
 * currency differs from the sale's, or whose transaction already settled another sale, is refused
 * (400). An unknown reference is acknowledged: retrying it would not make it ours.
 */
export async function receivePaymentEvent(
  deps: Deps,
  body: unknown,
  headerChecksum: string | undefined,
): Promise<{ success: true }> {
  const transaction = await deps.payments.verifyEvent(body, deps.clock.now(), headerChecksum);
  if (!transaction) {
    deps.logger.warn("payment event refused: checksum, environment or timestamp does not verify");
    throw unauthenticated(salesMessages.webhookRefused);
  }
  const sale = await saleByReference(deps, transaction.reference);
  if (!sale) {
    deps.logger.warn("payment event for an unknown reference", { reference: transaction.reference });
    return { success: true };
  }
  if ((await applyTransaction(deps, sale, transaction)) === "mismatch") throw invalid(salesMessages.webhookRefused);
  return { success: true };
}

async function saleOfToken(deps: Deps, token: string): Promise<SaleRecord> {
  const sale = await deps.sales.byTokenHash(hashToken(token));
  if (!sale) throw notFound(salesMessages.tokenInvalid);
  return sale;
}

const isExpired = (sale: SaleRecord, now: Date) =>
  sale.expiresAt !== null && Date.parse(sale.expiresAt) <= now.getTime();

/**
 * The buyer is back from the checkout with `id=<transactionId>`: ask the provider about that
 * transaction rather than believe the redirect. A transaction of another sale proves nothing; a
 * provider that does not answer leaves the sale pending (the event or reconciliation settles it).
 */
async function confirmByLookup(deps: Deps, sale: SaleRecord, transactionId: string): Promise<SaleRecord> {
  try {
    const transaction = await deps.payments.lookup(transactionId);
    if (!transaction || transaction.reference !== sale.reference) return sale;
    const applied = await applyTransaction(deps, sale, transaction);
    return applied === "mismatch" ? sale : applied;
  } catch (error) {
    deps.logger.warn("payment lookup failed; the sale stays pending", { saleId: sale.id, error });
    return sale;
  }
}

/**
 * GET /api/sales/download/{token}: what the download page shows. Reading never counts a download.
 * A paid sale lists its photos (clean web copy and thumbnail) with the downloads left for each;
 * any other state lists none.
 */
export async function downloadInfo(
  deps: Deps,
  token: string,
  transactionId: string | undefined,
): Promise<DownloadInfo> {
  let sale = await saleOfToken(deps, token);
  if (sale.status === "pending" && transactionId) sale = await confirmByLookup(deps, sale, transactionId);
  const event = await deps.events.get(sale.eventId);
  const info = {
    status: sale.status,
    eventId: sale.eventId,
    eventName: event?.name ?? "",
    dorsalNumber: sale.dorsalNumber,
    customerName: sale.customerName,
    customerEmail: sale.customerEmail,
    reference: sale.reference,
    amount: sale.amount,
    currency: sale.currency,
    paidAt: sale.paidAt,
    paymentMethod: sale.paymentMethod,
    statusMessage: sale.status === "declined" || sale.status === "error" ? (sale.statusMessage ?? null) : null,
    photoIds: sale.photoIds,
    expiresAt: sale.expiresAt,
    maxDownloads: sale.maxDownloads,
  };
  if (sale.status !== "paid") return { ...info, photos: [], remainingDownloads: 0 };
  if (isExpired(sale, deps.clock.now())) throw gone(salesMessages.downloadExpired);
  const downloadable = await downloadablePhotos(
    deps,
    {
      partition: saleDownloadGrant(sale.id),
      maxDownloads: sale.maxDownloads,
      downloadUrl: (photoId) =>
        `/api/sales/download/${encodeURIComponent(token)}/photos/${encodeURIComponent(photoId)}`,
    },
    await deps.photos.getMany(sale.photoIds),
  );
  return { ...info, ...downloadable };
}

/** The sale behind a download link, if its downloads are open: paid and not expired. */
async function downloadableSale(deps: Deps, token: string): Promise<SaleRecord> {
  const sale = await saleOfToken(deps, token);
  if (sale.status === "pending") throw forbidden(salesMessages.paymentPending);
  if (sale.status !== "paid") throw forbidden(salesMessages.paymentDeclined);
  if (isExpired(sale, deps.clock.now())) throw gone(salesMessages.downloadExpired);
  return sale;
}

/**
 * GET /api/sales/download/{token}/photos/{photoId}: counts one download of the photo (one
 * conditional ADD, so parallel requests never pass the cap) and returns a short-lived signed URL
 * of the clean original.
 */
export async function downloadPhoto(deps: Deps, token: string, photoId: string): Promise<string> {
  const sale = await downloadableSale(deps, token);
  const photo = sale.photoIds.includes(photoId) ? await deps.photos.get(photoId) : undefined;
  if (!photo) throw notFound(messages.notFound);
  const left = await deps.downloadCounts.consume(saleDownloadGrant(sale.id), photoId, sale.maxDownloads);
  if (left === null) throw forbidden(salesMessages.downloadLimit);
  return signedOriginalUrl(deps, photo);
}

/**
 * POST /api/sales/download/{token}/zip: one ZIP of the sale's originals that still have downloads
 * left, each counted once (app/original-zip.ts); 403 when none has any left.
 */
export async function downloadZip(deps: Deps, token: string): Promise<DownloadZip> {
  const sale = await downloadableSale(deps, token);
  const event = await deps.events.get(sale.eventId);
  const title = ["fotos", event?.name, sale.dorsalNumber && `dorsal ${sale.dorsalNumber}`].filter(Boolean).join(" ");
  const zip = await zipOfOriginals(
    deps,
    { partition: saleDownloadGrant(sale.id), maxDownloads: sale.maxDownloads, title },
    await deps.photos.getMany(sale.photoIds),
  );
  if (!zip) throw forbidden(salesMessages.downloadLimit);
  return zip;
}

/**
 * POST /api/sales/download/{token}/retry: after a declined or failed payment, a new checkout for
 * the same photos and buyer (a new sale, reference and link: the declined one stays as it was).
 * Priced again like any checkout, so a price that changed meanwhile is refused (409).
 */
export async function retrySale(
  deps: Deps,
  token: string,
  amount: number | undefined,
  origin: string,
): Promise<CreateSaleResponse> {
  const sale = await saleOfToken(deps, token);
  if (sale.status !== "declined" && sale.status !== "error") throw conflict(salesMessages.retryNotAllowed);
  return createSale(
    deps,
    {
      eventId: sale.eventId,
      ...(sale.dorsalNumber ? { dorsalNumber: sale.dorsalNumber } : {}),
      photoIds: sale.photoIds,
      customerName: sale.customerName,
      customerEmail: sale.customerEmail,
      amount,
    },
    origin,
  );
}

/** How many pending sales one reconciliation run looks up; the next run takes the rest. */
const reconcileBatch = 100;

/**
 * Settles the sales whose payment event never arrived (or was lost): pending sales older than
 * PAYMENT_RECONCILE_AFTER_SECONDS are looked up by reference. An approved transaction pays the
 * sale; one still pending waits; otherwise the last final one settles it. A checkout that expired
 * without any transaction leaves the list (the sale stays pending: nothing was ever paid).
 */
export async function reconcilePendingSales(
  deps: Deps,
): Promise<{ checked: number; settled: number; abandoned: number }> {
  const now = deps.clock.now();
  const cutoff = new Date(now.getTime() - deps.config.PAYMENT_RECONCILE_AFTER_SECONDS * 1000);
  const pending = await deps.sales.pendingBefore(cutoff, reconcileBatch);
  let settled = 0;
  let abandoned = 0;
  for (const sale of pending) {
    try {
      const transactions = (await deps.payments.lookupByReference(sale.reference)).filter((transaction) =>
        matchesSale(sale, transaction),
      );
      const approved = transactions.find((transaction) => transaction.status === "APPROVED");
      const waiting = transactions.some((transaction) => transaction.status === "PENDING");
      const settling = approved ?? (waiting ? undefined : transactions.at(-1));
      if (settling) {
        const applied = await applyTransaction(deps, sale, settling);
        if (applied !== "mismatch" && applied.status !== "pending") settled += 1;
      } else if (!waiting && Date.parse(sale.checkoutExpiresAt) < now.getTime()) {
        await deps.sales.abandon(sale, now);
        abandoned += 1;
      }
    } catch (error) {
      deps.logger.warn("reconciliation lookup failed; retried on the next run", { saleId: sale.id, error });
    }
  }
  return { checked: pending.length, settled, abandoned };
}

/** A sale as the admin's export shows it: everything but the token's hash. */
export type AdminSaleDto = Omit<SaleRecord, "tokenHash">;

/** GET /api/admin/sales?eventId=: an event's sales, oldest first, paged (export and audit). */
export async function listEventSales(
  deps: Deps,
  eventId: number,
  options: { limit: number; cursor?: PageCursor | undefined },
): Promise<{ sales: AdminSaleDto[]; nextCursor: string | null }> {
  const page = await deps.sales.listByEvent(eventId, options);
  return {
    // Field by field: the stored item also carries its keys and the token's hash.
    sales: page.sales.map((sale) => ({
      id: sale.id,
      reference: sale.reference,
      eventId: sale.eventId,
      dorsalNumber: sale.dorsalNumber,
      photoIds: sale.photoIds,
      amount: sale.amount,
      currency: sale.currency,
      customerEmail: sale.customerEmail,
      customerName: sale.customerName,
      status: sale.status,
      maxDownloads: sale.maxDownloads,
      validityDays: sale.validityDays,
      createdAt: sale.createdAt,
      checkoutExpiresAt: sale.checkoutExpiresAt,
      paidAt: sale.paidAt,
      expiresAt: sale.expiresAt,
      transactionId: sale.transactionId,
      paymentMethod: sale.paymentMethod,
      statusMessage: sale.statusMessage ?? null,
      updatedAt: sale.updatedAt,
    })),
    nextCursor: encodeCursor(page.cursor),
  };
}

/**
 * The dashboard's sales figures (whole COP, Colombian months): the month's counter, or, when an
 * admin reset the counter this month, the sales paid since the reset; last month's counter whole.
 */
export async function salesFigures(deps: Deps): Promise<{ monthlySales: number; previousMonthSales: number }> {
  const now = deps.clock.now();
  const month = salesMonthOf(now);
  const [year, monthNumber] = month.split("-").map(Number) as [number, number];
  const previousMonth = new Date(Date.UTC(year, monthNumber - 2, 1)).toISOString().slice(0, 7);
  const resetAt = await deps.settings.salesResetAt();
  const [current, previous] = await Promise.all([
    resetAt && salesMonthOf(resetAt) === month
      ? deps.sales.revenuePaidSince(month, resetAt)
      : deps.sales.month(month).then((totals) => totals.revenue),
    deps.sales.month(previousMonth),
  ]);
  return { monthlySales: current, previousMonthSales: previous.revenue };
}
