import type { Role } from "@dorsal/shared";
import type { SessionState } from "../app/tokens";
import type { Clock } from "../ports/clock";
import type { Table } from "../ports/table";
import { keys } from "./keys";

/**
 * The version of an account's password, carried by every session token issued for it: changing
 * the password bumps it, so the sessions issued before the change stop verifying. Accounts that
 * never changed theirs have no attribute, which reads as 0.
 */
export const passwordVersionOf = (user: object): number =>
  "passwordVersion" in user && typeof user.passwordVersion === "number" ? user.passwordVersion : 0;

/** Password changes on the user items (the rest of the account is in users.ts). */
export function createCredentialRepository(table: Table, clock: Clock) {
  return {
    /** What a session must still match: the account's role and password version; undefined when it is gone. */
    async sessionState(userId: string): Promise<SessionState | undefined> {
      const user = await table.get<{ role: Role }>(keys.user(userId));
      return user ? { role: user.role, passwordVersion: passwordVersionOf(user) } : undefined;
    },

    /**
     * Stores a new hash and bumps the version in one conditional update. With `expectedHash`, only
     * if the password is still the one just verified (a concurrent change wins, this one fails).
     * Returns the new version, or undefined when the condition failed or the account is gone.
     */
    async replacePassword(userId: string, passwordHash: string, expectedHash?: string): Promise<number | undefined> {
      const updated = await table.update<object>({
        key: keys.user(userId),
        set: { passwordHash, passwordChangedAt: clock.now().toISOString() },
        add: { passwordVersion: 1 },
        conditions: [
          expectedHash === undefined
            ? { attribute: "pk", op: "exists" }
            : { attribute: "passwordHash", op: "=", value: expectedHash },
        ],
      });
      return updated ? passwordVersionOf(updated) : undefined;
    },
  };
}
export type CredentialRepository = ReturnType<typeof createCredentialRepository>;
