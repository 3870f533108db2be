import type { Sealed } from "../app/sealed";
import type { Table } from "../ports/table";
import { keys } from "./keys";

/** An admin's drive tokens as stored: sealed, never in the clear. */
export interface DriveConnectionRecord {
  userId: string;
  tokens: Sealed;
  connectedAt: string;
  updatedAt: string;
}

/** An authorization under way: who started it, its PKCE verifier (sealed) and its redirect URI. */
export interface DriveAuthorizationRecord {
  userId: string;
  verifier: Sealed;
  redirectUri: string;
  /** Epoch seconds: DynamoDB's TTL removes it some time after; reads check it themselves. */
  ttl: number;
}

export function createDriveRepository(table: Table) {
  return {
    connection: (userId: string) => table.get<DriveConnectionRecord>(keys.driveConnection(userId)),

    async saveConnection(record: DriveConnectionRecord): Promise<void> {
      await table.put({ type: "driveConnection", ...record, ...keys.driveConnection(record.userId) });
    },

    /** Forgets the tokens; true when there were some. */
    removeConnection: (userId: string) => table.delete(keys.driveConnection(userId)),

    async startAuthorization(stateHash: string, record: DriveAuthorizationRecord): Promise<void> {
      await table.put(
        { type: "driveAuthorization", ...record, ...keys.driveAuthorization(stateHash) },
        { ifAbsent: true },
      );
    },

    /** The authorization, once: a second callback with the same state finds nothing. */
    async takeAuthorization(stateHash: string): Promise<DriveAuthorizationRecord | undefined> {
      const key = keys.driveAuthorization(stateHash);
      const record = await table.get<DriveAuthorizationRecord>(key);
      if (!record || !(await table.delete(key))) return undefined;
      return record;
    },
  };
}
export type DriveRepository = ReturnType<typeof createDriveRepository>;
