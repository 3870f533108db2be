import type { AdminSaleDto } from "@dorsal/shared";
import type { Table } from "../ports/table";
import {
  buyerPartition,
  buyerSalePrefix,
  keys,
  paidSalesPartition,
  pendingSalesPartition,
  salesOfEventPartition,
} from "./keys";
import type { PageCursor } from "./photos";
import { queryAll, queryThenGet } from "./query-all";

/** A sale as stored (spec §3 sales): what the admin sees, plus the token's hash. Amounts are whole COP; the gateway sees them ×100. */
export interface SaleRecord extends Omit<AdminSaleDto, "statusMessage" | "downloadsLeft"> {
  /** SHA-256 (hex) of the download token; the token is only in the buyer's link. */
  tokenHash: string;
  /**
   * SHA-256 (hex) of the second token, the one emailed when the sale was paid: the return page's link
   * keeps working beside it. Absent until that email; both go when the admin gives a new link.
   */
  emailTokenHash?: string;
  /** Absent on sales settled before it was kept. */
  statusMessage?: string | null;
}

export interface SalesMonth {
  count: number;
  revenue: number;
}

/** What a provider transaction contributes when it settles a sale. */
export interface Settlement {
  transactionId: string;
  paymentMethod: string | null;
  statusMessage: string | null;
  at: Date;
}

/** The partition a sale's per-photo download counters live in (data/download-counts.ts). */
export const saleDownloadGrant = (saleId: string) => keys.sale(saleId).pk;

const colombiaOffsetMs = -5 * 3600_000;
/** The sales month (`YYYY-MM`) of a moment, in Colombian time (UTC−5, no daylight saving). */
/** A paid sale's downloads end at `expiresAt` (set when it is paid). */
export const saleExpired = (sale: Pick<SaleRecord, "expiresAt">, now: Date) =>
  sale.expiresAt !== null && Date.parse(sale.expiresAt) <= now.getTime();

export const salesMonthOf = (at: Date) => new Date(at.getTime() + colombiaOffsetMs).toISOString().slice(0, 7);

/**
 * Sales and their download-token guards. Every state change is one conditional update, so two
 * deliveries of the same payment event (or an event racing a lookup) settle a sale once, and only
 * the winner moves the month's counters.
 */
export function createSalesRepository(table: Table) {
  /** A month's paid sales (the sparse paid index, sorted by payment time) paid from `from` until `to`. */
  const paidInMonth = (month: string, from: Date, to: Date | undefined) =>
    queryAll<Pick<SaleRecord, "eventId" | "amount">>(table, {
      index: "gsi2",
      partition: paidSalesPartition(month),
      // The sort key is `paidAt#saleId`: "~" sorts after every id, so a sale paid at `to` is in.
      sortBetween: [from.toISOString(), to ? `${to.toISOString()}~` : "9"],
    });

  // `changes` lets a recount replace the figures only if no sale moved them meanwhile.
  const addToMonth = (paidAt: Date, count: 1 | -1, revenue: number) =>
    table.update({
      key: keys.salesMonth(salesMonthOf(paidAt)),
      set: { type: "salesMonth", month: salesMonthOf(paidAt) },
      add: { count, revenue: count * revenue, changes: 1 },
    });

  return {
    /** Stores a new pending sale behind its token guard; false if the token hash is taken (never in practice). */
    async create(sale: SaleRecord): Promise<boolean> {
      const guarded = await table.put(
        { ...keys.downloadToken(sale.tokenHash), type: "downloadToken", saleId: sale.id },
        { ifAbsent: true },
      );
      if (!guarded) return false;
      // The buyer's entry first: one whose sale never got written points at nothing and is skipped.
      await table.put({
        ...keys.buyerSale(sale.customerEmail, sale.createdAt, sale.id),
        type: "buyerSale",
        saleId: sale.id,
      });
      return table.put(
        {
          ...keys.sale(sale.id),
          ...keys.salesOfEventIndex(sale.eventId, sale.createdAt, sale.id),
          ...keys.pendingSalesIndex(sale.createdAt, sale.id),
          type: "sale",
          ...sale,
        },
        { ifAbsent: true },
      );
    },

    get: (saleId: string) => table.get<SaleRecord>(keys.sale(saleId)),

    /**
     * A buyer email's sales, newest first, whatever their state (the caller keeps the paid ones):
     * only those created since the buyer entries exist (docs/features.md, 'Tu cuenta').
     */
    async listForBuyer(
      email: string,
      options: { limit: number; cursor?: PageCursor | undefined },
    ): Promise<{ sales: SaleRecord[]; cursor?: PageCursor }> {
      const page = await table.query<{ saleId: string }>({
        partition: buyerPartition(email),
        sortPrefix: buyerSalePrefix,
        descending: true,
        limit: options.limit,
        ...(options.cursor ? { cursor: options.cursor } : {}),
      });
      const byId = new Map(
        (await table.batchGet<SaleRecord>(page.items.map((item) => keys.sale(item.saleId)))).map((sale) => [
          sale.id,
          sale,
        ]),
      );
      const sales = page.items.flatMap((item) => byId.get(item.saleId) ?? []);
      return { sales, ...(page.cursor ? { cursor: page.cursor } : {}) };
    },

    async byTokenHash(tokenHash: string): Promise<SaleRecord | undefined> {
      const guard = await table.get<{ saleId: string }>(keys.downloadToken(tokenHash));
      const sale = guard ? await table.get<SaleRecord>(keys.sale(guard.saleId)) : undefined;
      // A link replaced by a new one may leave its guard behind if the replacement was cut short:
      // only the sale's current tokens open it.
      return sale && (sale.tokenHash === tokenHash || sale.emailTokenHash === tokenHash) ? sale : undefined;
    },

    /**
     * Gives a paid sale its emailed token, once: the guard first, then the sale, only if it has no
     * emailed token yet (a second caller's guard is taken back). False when the sale already had one.
     */
    async addEmailToken(sale: SaleRecord, tokenHash: string, at: Date): Promise<boolean> {
      if (
        !(await table.put(
          { ...keys.downloadToken(tokenHash), type: "downloadToken", saleId: sale.id },
          { ifAbsent: true },
        ))
      )
        return false;
      const updated = await table.update<SaleRecord>({
        key: keys.sale(sale.id),
        set: { emailTokenHash: tokenHash, updatedAt: at.toISOString() },
        conditions: [
          { attribute: "status", op: "=", value: "paid" },
          { attribute: "emailTokenHash", op: "not_exists" },
        ],
      });
      if (!updated) await table.delete(keys.downloadToken(tokenHash));
      return updated !== undefined;
    },

    /**
     * Gives the sale a new download token and drops every other (the emailed one too): the new
     * guard first, then the sale (only if it still has the tokens it was read with), then the old
     * guards go. Undefined when the sale changed meanwhile.
     */
    async replaceToken(sale: SaleRecord, tokenHash: string, at: Date): Promise<SaleRecord | undefined> {
      if (
        !(await table.put(
          { ...keys.downloadToken(tokenHash), type: "downloadToken", saleId: sale.id },
          { ifAbsent: true },
        ))
      )
        return undefined;
      const updated = await table.update<SaleRecord>({
        key: keys.sale(sale.id),
        set: { tokenHash, updatedAt: at.toISOString() },
        remove: ["emailTokenHash"],
        conditions: [
          { attribute: "tokenHash", op: "=", value: sale.tokenHash },
          sale.emailTokenHash
            ? { attribute: "emailTokenHash", op: "=", value: sale.emailTokenHash }
            : { attribute: "emailTokenHash", op: "not_exists" },
        ],
      });
      const dropped = updated ? [sale.tokenHash, sale.emailTokenHash] : [tokenHash];
      for (const hash of dropped) if (hash) await table.delete(keys.downloadToken(hash));
      return updated;
    },

    /**
     * Binds a provider transaction to the first sale it settles: true when it is now, or already
     * was, this sale's; false when another sale holds it. A signed event does not cover its
     * reference, so without this one approved payment could be replayed onto any sale of the same
     * amount. Claimed before the sale changes: a crash in between leaves a claim a retry reuses.
     */
    async claimTransaction(transactionId: string, saleId: string): Promise<boolean> {
      const key = keys.paymentTransaction(transactionId);
      if (await table.put({ ...key, type: "paymentTransaction", saleId }, { ifAbsent: true })) return true;
      return (await table.get<{ saleId: string }>(key))?.saleId === saleId;
    },

    /**
     * pending (or declined/error: a buyer may retry with another card under the same reference) →
     * paid. Returns the paid sale to the one caller that made the change; the month counts it then.
     */
    async markPaid(sale: SaleRecord, settlement: Settlement): Promise<SaleRecord | undefined> {
      const paidAt = settlement.at.toISOString();
      const expiresAt = new Date(settlement.at.getTime() + sale.validityDays * 86400_000).toISOString();
      const paid = await table.update<SaleRecord>({
        key: keys.sale(sale.id),
        set: {
          status: "paid",
          paidAt,
          expiresAt,
          transactionId: settlement.transactionId,
          paymentMethod: settlement.paymentMethod,
          // A retry approved after a decline: the decline's reason no longer applies.
          statusMessage: null,
          updatedAt: paidAt,
          ...keys.paidSalesIndex(salesMonthOf(settlement.at), paidAt, sale.id),
        },
        conditions: [
          // `<>` holds on a missing attribute: without this, a vanished sale would be re-created.
          { attribute: "pk", op: "exists" },
          { attribute: "status", op: "<>", value: "paid" },
          { attribute: "status", op: "<>", value: "voided" },
        ],
      });
      return paid;
    },

    /**
     * Adds a sale that `markPaid` just made paid to its month's figures: a second write, so a
     * process stopped between the two leaves the month one sale short until `recountMonth`.
     */
    async countPaid(sale: SaleRecord): Promise<void> {
      if (sale.paidAt) await addToMonth(new Date(sale.paidAt), 1, sale.amount);
    },

    /**
     * Recomputes a month's figures from its paid list, replacing them only if no sale moved them
     * while the list was read (a recount racing a payment changes nothing rather than something
     * wrong). Returns whether the stored figures were wrong and are now right.
     */
    async recountMonth(month: string): Promise<boolean> {
      const stored = await table.get<Partial<SalesMonth> & { changes?: number }>(keys.salesMonth(month));
      const sales = await paidInMonth(month, new Date(0), undefined);
      const count = sales.length;
      const revenue = sales.reduce((sum, sale) => sum + sale.amount, 0);
      if ((stored?.count ?? 0) === count && (stored?.revenue ?? 0) === revenue) return false;
      const replaced = await table.update({
        key: keys.salesMonth(month),
        set: { type: "salesMonth", month, count, revenue },
        add: { changes: 1 },
        conditions: [
          stored?.changes === undefined
            ? { attribute: "changes", op: "not_exists" }
            : { attribute: "changes", op: "=", value: stored.changes },
        ],
      });
      return replaced !== undefined;
    },

    /** pending → declined or error; a sale already paid stays paid (another attempt may have succeeded). */
    async markUnpaid(
      sale: SaleRecord,
      status: "declined" | "error",
      settlement: Settlement,
    ): Promise<SaleRecord | undefined> {
      return table.update<SaleRecord>({
        key: keys.sale(sale.id),
        set: {
          status,
          transactionId: settlement.transactionId,
          paymentMethod: settlement.paymentMethod,
          statusMessage: settlement.statusMessage,
          updatedAt: settlement.at.toISOString(),
        },
        remove: ["gsi2pk", "gsi2sk"],
        conditions: [{ attribute: "status", op: "=", value: "pending" }],
      });
    },

    /**
     * The provider voided the transaction: a paid sale by that very transaction loses its downloads
     * and leaves its month's figures; a pending one simply ends voided.
     */
    async markVoided(sale: SaleRecord, settlement: Settlement): Promise<SaleRecord | undefined> {
      const set = { status: "voided", updatedAt: settlement.at.toISOString() };
      const voidedPaid = await table.update<SaleRecord>({
        key: keys.sale(sale.id),
        set,
        remove: ["gsi2pk", "gsi2sk"],
        conditions: [
          { attribute: "status", op: "=", value: "paid" },
          { attribute: "transactionId", op: "=", value: settlement.transactionId },
        ],
      });
      if (voidedPaid?.paidAt) {
        await addToMonth(new Date(voidedPaid.paidAt), -1, sale.amount);
        return voidedPaid;
      }
      return table.update<SaleRecord>({
        key: keys.sale(sale.id),
        set: { ...set, transactionId: settlement.transactionId, paymentMethod: settlement.paymentMethod },
        remove: ["gsi2pk", "gsi2sk"],
        conditions: [{ attribute: "status", op: "=", value: "pending" }],
      });
    },

    /** Takes a checkout nobody paid off the reconciliation list; the sale stays pending (it was never paid). */
    async abandon(sale: SaleRecord, at: Date): Promise<void> {
      await table.update({
        key: keys.sale(sale.id),
        set: { abandonedAt: at.toISOString() },
        remove: ["gsi2pk", "gsi2sk"],
        conditions: [{ attribute: "status", op: "=", value: "pending" }],
      });
    },

    /** Pending sales created before `before`, oldest first. */
    async pendingBefore(before: Date, limit: number): Promise<SaleRecord[]> {
      const page = await table.query<SaleRecord>({
        index: "gsi2",
        partition: pendingSalesPartition,
        sortBetween: ["0", before.toISOString()],
        limit,
      });
      return page.items;
    },

    async listByEvent(
      eventId: number,
      options: { limit: number; cursor?: PageCursor | undefined },
    ): Promise<{ sales: SaleRecord[]; cursor?: PageCursor }> {
      const page = await queryThenGet<SaleRecord>(table, {
        index: "gsi1",
        partition: salesOfEventPartition(eventId),
        limit: options.limit,
        ...(options.cursor ? { cursor: options.cursor } : {}),
      });
      return { sales: page.items, ...(page.cursor ? { cursor: page.cursor } : {}) };
    },

    async month(month: string): Promise<SalesMonth> {
      const item = await table.get<Partial<SalesMonth>>(keys.salesMonth(month));
      return { count: item?.count ?? 0, revenue: item?.revenue ?? 0 };
    },

    /** Revenue of the month's sales paid from `from` on (whole COP), paging through the month's paid list. */
    async revenuePaidSince(month: string, from: Date): Promise<number> {
      const sales = await paidInMonth(month, from, undefined);
      return sales.reduce((sum, sale) => sum + sale.amount, 0);
    },

    /** Sales paid between two moments (each month's paid list, a page at a time): event and amount. */
    async paidBetween(from: Date, to: Date): Promise<Pick<SaleRecord, "eventId" | "amount">[]> {
      const months = new Set<string>();
      for (let at = from.getTime(); at < to.getTime(); at += 24 * 3600_000) months.add(salesMonthOf(new Date(at)));
      months.add(salesMonthOf(to));
      const perMonth = await Promise.all([...months].map((month) => paidInMonth(month, from, to)));
      return perMonth.flat();
    },
  };
}
export type SalesRepository = ReturnType<typeof createSalesRepository>;
