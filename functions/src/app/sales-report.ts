import type { AdminSalePage } from "@dorsal/shared";
import type { PageCursor } from "../data/photos";
import { salesMonthOf } from "../data/sales";
import type { Deps } from "./deps";
import { encodeCursor } from "./page-cursor";

/** GET /api/admin/sales?eventId=: an event's sales, oldest first, paged (export and audit). */
export async function listEventSales(
  deps: Pick<Deps, "sales">,
  eventId: number,
  options: { limit: number; cursor?: PageCursor | undefined },
): Promise<AdminSalePage> {
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
export async function salesFigures(
  deps: Pick<Deps, "clock" | "settings" | "sales">,
): Promise<{ monthlySales: number; previousMonthSales: number }> {
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
