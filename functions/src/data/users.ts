import type { PublicUser, Role } from "@dorsal/shared";
import type { Clock } from "../ports/clock";
import type { Ids } from "../ports/ids";
import type { Table } from "../ports/table";
import { keys, usersIndexPartition } from "./keys";
import type { PageCursor } from "./photos";
import { queryAllThenGet, queryThenGet } from "./query-all";

export interface UserRecord {
  id: string;
  email: string;
  passwordHash: string;
  role: Role;
  name: string | null;
  assignedEventId: number | null;
  createdAt: string;
  lastLogin: string | null;
  /** Absent on accounts made before verification existed: unverified, like null. */
  emailVerifiedAt?: string | null;
  /** SHA-256 (hex) of the one verification link that works now; each new email replaces it. */
  verificationTokenHash?: string;
  verificationExpiresAt?: string;
  verificationSentAt?: string;
}

export const toPublicUser = (user: UserRecord): PublicUser => ({
  id: user.id,
  email: user.email,
  name: user.name,
  role: user.role,
  assignedEventId: user.assignedEventId,
  createdAt: user.createdAt,
  lastLogin: user.lastLogin,
  emailVerifiedAt: user.emailVerifiedAt ?? null,
});

export function createUserRepository(table: Table, ids: Ids, clock: Clock) {
  return {
    /**
     * The guard names the user; the user must still have that email, since a crash in the middle of
     * an email change can leave a guard whose user has moved on (see `update`).
     */
    async findByEmail(email: string): Promise<UserRecord | undefined> {
      const guard = await table.get<{ userId: string }>(keys.userEmail(email));
      if (!guard) return undefined;
      const user = await table.get<UserRecord & { pk: string; sk: string }>(keys.user(guard.userId));
      return user?.email === email.toLowerCase() ? user : undefined;
    },

    /**
     * Claims the email first (conditional put), then writes the user. Returns undefined when the
     * email is taken. A crash between the two writes leaves a guard pointing at no user, which
     * `findByEmail` treats as absent and a retry of the same email reports as taken — safe, not lost.
     */
    async create(input: Omit<UserRecord, "id" | "createdAt" | "lastLogin">): Promise<UserRecord | undefined> {
      const id = ids.newId();
      const email = input.email.toLowerCase();
      const claimed = await table.put({ ...keys.userEmail(email), userId: id }, { ifAbsent: true });
      if (!claimed) return undefined;
      const createdAt = clock.now().toISOString();
      const user: UserRecord = { ...input, email, id, createdAt, lastLogin: null };
      await table.put({ ...keys.user(id), ...keys.usersIndex(createdAt, id), type: "user", ...user });
      return user;
    },

    get: (userId: string) => table.get<UserRecord & { pk: string; sk: string }>(keys.user(userId)),

    /**
     * Changes name, email and role without transactions:
     * 1. a new email is claimed first with a conditional put, so it stays unique even when two
     *    changes race (a guard already naming this user is one a crashed attempt left: ours to use);
     * 2. the user is updated only if its email is still the one read, so a concurrent change wins;
     * 3. only then is the old email released.
     * A crash after 1 leaves the new email blocked (`findByEmail` ignores the guard, a retry of the
     * same change reuses it); a crash after 2 leaves the old one blocked. Neither loses the account.
     */
    async update(
      user: Pick<UserRecord, "id" | "email">,
      changes: Pick<UserRecord, "name" | "email" | "role">,
    ): Promise<{ status: "updated"; user: UserRecord } | { status: "email_taken" } | { status: "stale" }> {
      const email = changes.email.toLowerCase();
      const moving = email !== user.email;
      if (moving && !(await table.put({ ...keys.userEmail(email), userId: user.id }, { ifAbsent: true }))) {
        const guard = await table.get<{ userId: string }>(keys.userEmail(email));
        if (guard?.userId !== user.id) return { status: "email_taken" };
      }
      const updated = await table.update<UserRecord & { pk: string; sk: string }>({
        key: keys.user(user.id),
        set: { name: changes.name, email, role: changes.role },
        // A new address is unproven: its owner must open a link sent to it before 'Tu cuenta' lists by it.
        ...(moving ? { remove: ["emailVerifiedAt", "verificationTokenHash", "verificationExpiresAt"] } : {}),
        conditions: [{ attribute: "email", op: "=", value: user.email }],
      });
      if (!updated) {
        // Release the claim unless a concurrent change of this same user already moved to it.
        const current = await table.get<UserRecord>(keys.user(user.id));
        if (moving && current?.email !== email) await table.delete(keys.userEmail(email));
        return { status: "stale" };
      }
      if (moving) await table.delete(keys.userEmail(user.email));
      return { status: "updated", user: updated };
    },

    /** Every account, oldest first: for the preflight's clean-up, never a screen (athletes sign up by thousands). */
    async list(): Promise<UserRecord[]> {
      return queryAllThenGet<UserRecord>(table, { index: "gsi1", partition: usersIndexPartition });
    },

    /** A page of accounts, newest first. */
    async page(options: { limit: number; cursor?: PageCursor | undefined }): Promise<{
      users: UserRecord[];
      cursor?: PageCursor;
    }> {
      const page = await queryThenGet<UserRecord>(table, {
        index: "gsi1",
        partition: usersIndexPartition,
        descending: true,
        limit: options.limit,
        ...(options.cursor ? { cursor: options.cursor } : {}),
      });
      return { users: page.items, ...(page.cursor ? { cursor: page.cursor } : {}) };
    },

    /**
     * Removes the user, then frees the email. A crash in between leaves a guard pointing at no user,
     * which `findByEmail` already treats as absent.
     */
    async delete(user: Pick<UserRecord, "id" | "email">): Promise<boolean> {
      const deleted = await table.delete(keys.user(user.id));
      await table.delete(keys.userEmail(user.email));
      return deleted;
    },

    /**
     * Arms a new verification link (the previous one stops working) unless one went out less than
     * `minGapMs` ago; the condition on the last send time makes two clicks at once send one email.
     */
    async armVerification(
      user: UserRecord,
      link: { tokenHash: string; expiresAt: Date },
      minGapMs: number,
    ): Promise<"armed" | "too_soon"> {
      const now = clock.now();
      const last = user.verificationSentAt;
      if (last && now.getTime() - Date.parse(last) < minGapMs) return "too_soon";
      const armed = await table.update({
        key: keys.user(user.id),
        set: {
          verificationTokenHash: link.tokenHash,
          verificationExpiresAt: link.expiresAt.toISOString(),
          verificationSentAt: now.toISOString(),
        },
        conditions: [
          { attribute: "email", op: "=", value: user.email },
          last
            ? { attribute: "verificationSentAt", op: "=", value: last }
            : { attribute: "verificationSentAt", op: "not_exists" },
        ],
      });
      return armed ? "armed" : "too_soon";
    },

    /**
     * Spends the verification link: only the current one, unexpired, for the email it was sent to.
     * Removing the hash in the same conditional write makes it single-use.
     */
    async verifyEmail(user: UserRecord, tokenHash: string): Promise<boolean> {
      const now = clock.now().toISOString();
      const verified = await table.update({
        key: keys.user(user.id),
        set: { emailVerifiedAt: now },
        remove: ["verificationTokenHash", "verificationExpiresAt"],
        conditions: [
          { attribute: "email", op: "=", value: user.email },
          { attribute: "verificationTokenHash", op: "=", value: tokenHash },
        ],
      });
      return verified !== undefined;
    },

    async recordLogin(userId: string): Promise<void> {
      await table.update({ key: keys.user(userId), set: { lastLogin: clock.now().toISOString() } });
    },
  };
}
export type UserRepository = ReturnType<typeof createUserRepository>;
