import { type AdminSaleDto, type AdminSaleLink, type AdminSalePage, salesMessages } from "@dorsal/shared";
import { mailTexts } from "@dorsal/shared/mail-texts";
import type { PageCursor } from "../data/photos";
import { type SaleRecord, saleDownloadGrant, saleExpired, salesMonthOf } from "../data/sales";
import { drawDownloadToken } from "./checkout";
import type { Deps } from "./deps";
import { conflict, notFound } from "./errors";
import { sendMail } from "./mail";
import { encodeCursor } from "./page-cursor";
import { downloadLink, type SaleMailDeps, saleMailFacts } from "./sale-mail";

type ReportDeps = Pick<Deps, "sales" | "downloadCounts">;

/** The fewest downloads left over a paid sale's photos (the allowance counts per photo). */
export async function downloadsLeft(deps: ReportDeps, sale: SaleRecord): Promise<number | null> {
  if (sale.paidAt === null) return null;
  const counts = await deps.downloadCounts.counts(saleDownloadGrant(sale.id), sale.photoIds);
  return Math.max(0, Math.min(...sale.photoIds.map((photoId) => sale.maxDownloads - (counts.get(photoId) ?? 0))));
}

const matches = (sale: SaleRecord, query: string) =>
  sale.customerEmail.toLowerCase().includes(query) || sale.reference.toLowerCase().includes(query);

/**
 * GET /api/admin/sales?eventId=: an event's sales, oldest first, paged (export, audit and the
 * admin's sales screen). With `q`, the event's sales whose buyer email or reference contains it,
 * read through to the end (an event's sales are few enough for an admin's search), at most `limit`.
 */
export async function listEventSales(
  deps: ReportDeps,
  eventId: number,
  options: { limit: number; cursor?: PageCursor | undefined; query?: string | undefined },
): Promise<AdminSalePage> {
  const query = options.query?.toLowerCase();
  let page: { sales: SaleRecord[]; cursor?: PageCursor };
  if (query) {
    const found: SaleRecord[] = [];
    let cursor = options.cursor;
    do {
      const read = await deps.sales.listByEvent(eventId, { limit: 200, cursor });
      found.push(...read.sales.filter((sale) => matches(sale, query)));
      cursor = read.cursor;
    } while (cursor && found.length < options.limit);
    page = { sales: found.slice(0, options.limit) };
  } else {
    page = await deps.sales.listByEvent(eventId, options);
  }
  return {
    sales: await Promise.all(page.sales.map(async (sale) => toAdminSale(sale, await downloadsLeft(deps, sale)))),
    nextCursor: encodeCursor(page.cursor),
  };
}

/**
 * POST /api/admin/sales/{saleId}/link: for a buyer who lost the link, a new one to send them; every
 * older link (the return page's and the emailed one) stops working at once. Only a paid sale that
 * has not expired has one. With `sendEmail`, the buyer gets it by email too; an email that could
 * not be sent is reported, and the link stands.
 */
export async function newSaleLink(
  deps: SaleMailDeps,
  saleId: string,
  options: { origin: string; sendEmail: boolean },
): Promise<AdminSaleLink> {
  const sale = await deps.sales.get(saleId);
  if (!sale) throw notFound(salesMessages.saleNotFound);
  const now = deps.clock.now();
  if (sale.status !== "paid" || saleExpired(sale, now)) throw conflict(salesMessages.linkOnlyForPaid);
  const { token, tokenHash } = drawDownloadToken();
  const replaced = await deps.sales.replaceToken(sale, tokenHash, now);
  // Two admins at once: the other one's link is the one that works.
  if (!replaced) throw conflict(salesMessages.linkOnlyForPaid);
  const mail = options.sendEmail
    ? await sendMail(
        deps,
        sale.customerEmail,
        mailTexts.saleNewLink(await saleMailFacts(deps, sale, downloadLink(deps, token))),
        { purpose: "sale-new-link", saleId: sale.id },
      )
    : null;
  return { downloadUrl: `${options.origin}/download?token=${token}`, expiresAt: sale.expiresAt, mail };
}

function toAdminSale(sale: SaleRecord, left: number | null): AdminSaleDto {
  return {
    // Field by field: the stored item also carries its keys and the token's hash.
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
    downloadsLeft: left,
  };
}

/** The months the dashboard shows (this one and the one before, Colombian time). */
function dashboardMonths(now: Date): { month: string; previousMonth: string } {
  const month = salesMonthOf(now);
  const [year, monthNumber] = month.split("-").map(Number) as [number, number];
  return { month, previousMonth: new Date(Date.UTC(year, monthNumber - 2, 1)).toISOString().slice(0, 7) };
}

/**
 * Puts right the sales figures a stopped process left one sale short (paid, never counted: the
 * local runtime at start-up, the AWS schedule hourly): the months the dashboard shows, recounted
 * from their paid lists. Returns the months that were wrong.
 */
export async function recountSalesMonths(deps: Pick<Deps, "clock" | "sales">): Promise<string[]> {
  const { month, previousMonth } = dashboardMonths(deps.clock.now());
  const fixed: string[] = [];
  for (const each of [previousMonth, month]) if (await deps.sales.recountMonth(each)) fixed.push(each);
  return fixed;
}

/**
 * The dashboard's sales figures (whole COP, Colombian months): the month's counter, or, when an
 * admin reset the counter this month, the sales paid since the reset; last month's counter whole.
 */
export async function salesFigures(
  deps: Pick<Deps, "clock" | "settings" | "sales">,
): Promise<{ monthlySales: number; previousMonthSales: number }> {
  const { month, previousMonth } = dashboardMonths(deps.clock.now());
  const resetAt = await deps.settings.salesResetAt();
  const [current, previous] = await Promise.all([
    resetAt && salesMonthOf(resetAt) === month
      ? deps.sales.revenuePaidSince(month, resetAt)
      : deps.sales.month(month).then((totals) => totals.revenue),
    deps.sales.month(previousMonth),
  ]);
  return { monthlySales: current, previousMonthSales: previous.revenue };
}
