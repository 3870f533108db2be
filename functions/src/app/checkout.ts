import { createHash, randomBytes } from "node:crypto";
import {
  type CartQuote,
  type CreateSaleResponse,
  cartPrice,
  type cartQuoteRequest,
  type createSaleRequest,
  messages,
  salesMessages,
} from "@dorsal/shared";
import type { z } from "zod";
import type { SaleRecord } from "../data/sales";
import type { Deps } from "./deps";
import { conflict, invalid, notFound, unavailable } from "./errors";

/**
 * The money path (docs/payments.md): a cart priced by the server, a pending sale behind a hosted
 * checkout, payment events and lookups that settle it, and a download link that counts each
 * download of each photo. The buyer's redirect back is only a hint: a sale becomes paid through a
 * verified event or a lookup the server makes itself.
 */

type QuoteInput = z.output<typeof cartQuoteRequest>;
type SaleInput = z.output<typeof createSaleRequest>;
type PricingDeps = Pick<Deps, "events" | "photos" | "bibLinks" | "pricing" | "settings">;
type CheckoutDeps = PricingDeps & Pick<Deps, "clock" | "ids" | "payments" | "sales" | "logger">;

/** The checkout stops taking the payment after this; a sale with no transaction by then is abandoned. */
const checkoutMinutes = 30;
const referencePrefix = "DOR-";
const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** A download link's secret (32 random bytes) and the hash that is all the table keeps of it. */
export function drawDownloadToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: hashToken(token) };
}

interface PricedCart {
  quote: CartQuote;
  validityDays: number;
  maxDownloads: number;
}

/**
 * What a cart costs:
 * 1. the event exists and is not free;
 * 2. every photo is a processed photo of that event;
 * 3. the event's own tiers when an admin saved them, else spec §9's bundles over the system photo
 *    price. Pricing is saved in pesos only since issue 22; one saved earlier may be in dollars or
 *    euros, which the gateway does not charge, so its carts are refused until an admin saves it again.
 */
async function priceCart(deps: PricingDeps, request: QuoteInput): Promise<PricedCart> {
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
  deps: Pick<Deps, "photos" | "bibLinks">,
  eventId: number,
  bib: string | undefined,
  chosen: readonly string[],
): Promise<number | null> {
  if (!bib) return null;
  const ofBib = (await deps.photos.getMany(await deps.bibLinks.photoIdsForBib(eventId, bib))).filter(
    (photo) => photo.processingStatus === "successful",
  );
  const ids = new Set(ofBib.map((photo) => photo.id));
  return chosen.every((id) => ids.has(id)) ? ofBib.length : null;
}

export async function quoteCart(deps: PricingDeps, request: QuoteInput): Promise<CartQuote> {
  return (await priceCart(deps, request)).quote;
}

/**
 * Checkout:
 * 1. price the cart again on the server; a different figure than the buyer saw is refused (409);
 * 2. draw the download token (32 random bytes); only its SHA-256 is stored;
 * 3. sign the gateway's checkout URL, which brings the buyer back to /download with the token;
 * 4. store the pending sale (it joins the reconciliation list).
 */
export async function createSale(deps: CheckoutDeps, request: SaleInput, origin: string): Promise<CreateSaleResponse> {
  const { quote, validityDays, maxDownloads } = await priceCart(deps, request);
  if (request.amount !== undefined && request.amount !== quote.total) throw conflict(salesMessages.priceChanged);
  const now = deps.clock.now();
  const id = deps.ids.newId();
  const { token, tokenHash } = drawDownloadToken();
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
    tokenHash,
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

export async function saleByReference(deps: Pick<Deps, "sales">, reference: string): Promise<SaleRecord | undefined> {
  if (!reference.startsWith(referencePrefix)) return undefined;
  const sale = await deps.sales.get(reference.slice(referencePrefix.length));
  return sale?.reference === reference ? sale : undefined;
}

export async function saleOfToken(deps: Pick<Deps, "sales">, token: string): Promise<SaleRecord> {
  const sale = await deps.sales.byTokenHash(hashToken(token));
  if (!sale) throw notFound(salesMessages.tokenInvalid);
  return sale;
}

/**
 * POST /api/sales/download/{token}/retry: after a declined or failed payment, a new checkout for
 * the same photos and buyer (a new sale, reference and link: the declined one stays as it was).
 * Priced again like any checkout, so a price that changed meanwhile is refused (409).
 */
export async function retrySale(
  deps: CheckoutDeps,
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
