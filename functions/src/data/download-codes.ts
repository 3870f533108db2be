import type { Table } from "../ports/table";
import { buyerCodePrefix, buyerPartition, codesOfEventPartition, keys } from "./keys";
import { queryThenGet } from "./query-all";

/** A download code (spec §3 download_codes): one bib's photos of one event, capped and expiring. */
export interface DownloadCodeRecord {
  code: string;
  eventId: number;
  dorsalNumber: string;
  maxDownloads: number;
  expiresAt: string;
  createdAt: string;
  /** The admin who issued it. */
  createdBy: string;
  isUsed: boolean;
  usedAt: string | null;
  /** Downloads counted over all its photos (each photo is capped on its own counter). */
  downloadCount: number;
  /** The address an admin emailed it to (codes made before this was recorded have none). */
  sentTo?: string;
}

/** The partition a code's per-photo download counters live in (data/download-counts.ts). */
export const codeDownloadGrant = (code: string) => keys.downloadCode(code).pk;

export function createDownloadCodeRepository(table: Table) {
  return {
    /** Stores a new code; false when the code is already taken (the caller draws another). */
    create(record: DownloadCodeRecord): Promise<boolean> {
      return table.put(
        {
          ...keys.downloadCode(record.code),
          ...keys.codesOfEventIndex(record.eventId, record.createdAt, record.code),
          type: "downloadCode",
          ...record,
        },
        { ifAbsent: true },
      );
    },

    /** Files an emailed code under its address, for that account's 'Tu cuenta'. */
    async recordSentTo(email: string, record: Pick<DownloadCodeRecord, "code" | "createdAt">): Promise<void> {
      await table.put({
        ...keys.buyerCode(email, record.createdAt, record.code),
        type: "buyerCode",
        code: record.code,
      });
    },

    /** The codes emailed to an address, newest first. */
    async listSentTo(email: string, limit: number): Promise<DownloadCodeRecord[]> {
      const page = await table.query<{ code: string }>({
        partition: buyerPartition(email),
        sortPrefix: buyerCodePrefix,
        descending: true,
        limit,
      });
      const codes = await table.batchGet<DownloadCodeRecord>(page.items.map((item) => keys.downloadCode(item.code)));
      const byCode = new Map(codes.map((code) => [code.code, code]));
      return page.items.flatMap((item) => byCode.get(item.code) ?? []);
    },

    get(code: string): Promise<DownloadCodeRecord | undefined> {
      return table.get<DownloadCodeRecord>(keys.downloadCode(code));
    },

    /** The event's codes, newest first. */
    async listForEvent(eventId: number, limit: number): Promise<DownloadCodeRecord[]> {
      const page = await queryThenGet<DownloadCodeRecord>(table, {
        index: "gsi1",
        partition: codesOfEventPartition(eventId),
        descending: true,
        limit,
      });
      return page.items;
    },

    /** Records counted downloads (one per photo; a ZIP counts each photo in it): the total, and the time of the first one. */
    async recordDownload(code: string, at: Date, photos = 1): Promise<void> {
      await table.update({ key: keys.downloadCode(code), add: { downloadCount: photos } });
      await table.update({
        key: keys.downloadCode(code),
        set: { isUsed: true, usedAt: at.toISOString() },
        conditions: [{ attribute: "isUsed", op: "=", value: false }],
      });
    },
  };
}
export type DownloadCodeRepository = ReturnType<typeof createDownloadCodeRepository>;
