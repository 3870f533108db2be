import { salesMessages } from "@dorsal/shared";
import type { SaleRecord } from "../data/sales";
import type { PaymentTransaction } from "../ports/payments";
import { saleByReference } from "./checkout";
import type { Deps } from "./deps";
import { invalid, unauthenticated } from "./errors";
import { faultPoint } from "./faults";
import { emailPaidSale, type SaleMailDeps } from "./sale-mail";

type SettlementDeps = SaleMailDeps & Pick<Deps, "payments" | "config">;

const matchesSale = (sale: SaleRecord, transaction: PaymentTransaction) =>
  transaction.reference === sale.reference &&
  transaction.currency === sale.currency &&
  transaction.amountInCents === sale.amount * 100;

/**
 * Settles a sale by what the provider says of one of its transactions. Each change is one
 * conditional update, so repeating it (a redelivered event, an event racing a lookup) changes
 * nothing; PENDING changes nothing either. "mismatch" when the transaction is not this sale's
 * (another amount or currency, or it already settled another sale): then nothing changes at all.
 * The one call that makes the sale paid emails the buyer their link.
 */
async function applyTransaction(
  deps: SaleMailDeps & Pick<Deps, "config">,
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
  if (transaction.status === "APPROVED") {
    const paid = await deps.sales.markPaid(sale, settlement);
    if (paid) {
      faultPoint(deps.config, "sale-paid");
      await deps.sales.countPaid(paid);
      await emailPaidSale(deps, paid);
      return paid;
    }
    return (await deps.sales.get(sale.id)) ?? sale;
  }
  const changed =
    transaction.status === "DECLINED"
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
  deps: SettlementDeps,
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

/**
 * The buyer is back from the checkout with `id=<transactionId>`: ask the provider about that
 * transaction rather than believe the redirect. A transaction of another sale proves nothing; a
 * provider that does not answer leaves the sale pending (the event or reconciliation settles it).
 */
export async function confirmByLookup(
  deps: SettlementDeps,
  sale: SaleRecord,
  transactionId: string,
): Promise<SaleRecord> {
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

/** How many pending sales one reconciliation run looks up; the next run takes the rest. */
const reconcileBatch = 100;

/**
 * Settles the sales whose payment event never arrived (or was lost): pending sales older than
 * PAYMENT_RECONCILE_AFTER_SECONDS are looked up by reference. An approved transaction pays the
 * sale; one still pending waits; otherwise the last final one settles it. A checkout that expired
 * without any transaction leaves the list (the sale stays pending: nothing was ever paid).
 */
export async function reconcilePendingSales(
  deps: SettlementDeps,
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
