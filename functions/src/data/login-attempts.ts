import type { Table } from "../ports/table";
import { keys, loginPartition } from "./keys";
import { queryAll } from "./query-all";

interface AttemptsItem {
  attempts: number;
}

interface LockItem {
  lockedUntil: string;
}

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * Attempts at a secret (a sign-in's password, a download code), counted per subject (the email,
 * the event and bib) and per client — an address, a trusted device, or every client together —
 * (app/login-throttle.ts). Counters are single items bumped with ADD (dynalite has no
 * transactions) and carry a TTL, so nothing needs sweeping.
 */
export function createLoginAttemptRepository(table: Table) {
  return {
    /**
     * The latest lock over `lockClients` (possibly already over) and one window's count for each
     * of `countClients`, in one batch read.
     */
    async read(
      subject: string,
      lockClients: string[],
      countClients: string[],
      window: number,
    ): Promise<{ lockedUntil: Date | null; attempts: Map<string, number> }> {
      const lockKeys = lockClients.map((client) => keys.loginLock(subject, client));
      const countKeys = countClients.map((client) => keys.loginAttempts(subject, client, window));
      const items = await table.batchGet<(AttemptsItem | LockItem) & { sk: string }>([...lockKeys, ...countKeys]);
      let lockedUntil: Date | null = null;
      const attempts = new Map(countClients.map((client) => [client, 0]));
      for (const item of items) {
        if ("lockedUntil" in item) {
          const until = new Date(item.lockedUntil);
          if (!lockedUntil || until > lockedUntil) lockedUntil = until;
          continue;
        }
        const index = countKeys.findIndex((key) => key.sk === item.sk);
        const client = countClients[index];
        if (client !== undefined && "attempts" in item) attempts.set(client, item.attempts);
      }
      return { lockedUntil, attempts };
    },

    /**
     * Counts one attempt before its secret is checked, and returns the window's count including
     * it: concurrent guesses each get their own number, so a burst cannot slip past the limit.
     * `by: -1` takes back an attempt that turned out right.
     */
    async count(subject: string, client: string, window: number, expiresAt: Date, by = 1): Promise<number> {
      const item = await table.update<AttemptsItem>({
        key: keys.loginAttempts(subject, client, window),
        set: { type: "loginAttempts", ttl: epochSeconds(expiresAt) },
        add: { attempts: by },
      });
      return item?.attempts ?? by;
    },

    async lock(subject: string, client: string, until: Date): Promise<void> {
      await table.put({
        ...keys.loginLock(subject, client),
        type: "loginLock",
        lockedUntil: until.toISOString(),
        ttl: epochSeconds(until),
      });
    },

    /** After a right secret: this client's count starts again. */
    async clear(subject: string, client: string, windows: number[]): Promise<void> {
      await Promise.all([
        table.delete(keys.loginLock(subject, client)),
        ...windows.map((window) => table.delete(keys.loginAttempts(subject, client, window))),
      ]);
    },

    /** After an admin sets the account's password: every client's counts and locks go. */
    async clearSubject(subject: string): Promise<void> {
      const items = await queryAll<{ pk: string; sk: string }>(table, { partition: loginPartition(subject) });
      await table.batchDelete(items.map(({ pk, sk }) => ({ pk, sk })));
    },
  };
}
export type LoginAttemptRepository = ReturnType<typeof createLoginAttemptRepository>;
