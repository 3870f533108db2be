import type { Table } from "../ports/table";
import { keys } from "./keys";

interface AttemptsItem {
  attempts: number;
}

interface LockItem {
  lockedUntil: string;
}

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * Sign-in attempts per email (spec: throttling, see app/login-throttle.ts). Counters are single
 * items bumped with ADD (dynalite has no transactions) and carry a TTL, so nothing needs sweeping.
 */
export function createLoginAttemptRepository(table: Table) {
  return {
    /** The lock's end, when the email has one (possibly already over), and one window's count. */
    async read(email: string, window: number): Promise<{ lockedUntil: Date | null; attempts: number }> {
      const lockKey = keys.loginLock(email);
      const items = await table.batchGet<(AttemptsItem | LockItem) & { sk: string }>([
        lockKey,
        keys.loginAttempts(email, window),
      ]);
      let lockedUntil: Date | null = null;
      let attempts = 0;
      for (const item of items) {
        if (item.sk === lockKey.sk && "lockedUntil" in item) lockedUntil = new Date(item.lockedUntil);
        else if ("attempts" in item) attempts = item.attempts;
      }
      return { lockedUntil, attempts };
    },

    /**
     * Counts one attempt before its password is checked, and returns the window's count including
     * it: concurrent guesses each get their own number, so a burst cannot slip past the limit.
     */
    async count(email: string, window: number, expiresAt: Date): Promise<number> {
      const item = await table.update<AttemptsItem>({
        key: keys.loginAttempts(email, window),
        set: { type: "loginAttempts", ttl: epochSeconds(expiresAt) },
        add: { attempts: 1 },
      });
      return item?.attempts ?? 1;
    },

    async lock(email: string, until: Date): Promise<void> {
      await table.put({
        ...keys.loginLock(email),
        type: "loginLock",
        lockedUntil: until.toISOString(),
        ttl: epochSeconds(until),
      });
    },

    /** After a correct password (or an admin setting a new one): the count starts again. */
    async clear(email: string, windows: number[]): Promise<void> {
      await Promise.all([
        table.delete(keys.loginLock(email)),
        ...windows.map((window) => table.delete(keys.loginAttempts(email, window))),
      ]);
    },
  };
}
export type LoginAttemptRepository = ReturnType<typeof createLoginAttemptRepository>;
