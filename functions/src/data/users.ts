import type { PublicUser, Role } from "@dorsal/shared";
import type { Clock } from "../ports/clock";
import type { Ids } from "../ports/ids";
import type { Table } from "../ports/table";
import { keys, usersIndexPartition } from "./keys";

export interface UserRecord {
  id: string;
  email: string;
  passwordHash: string;
  role: Role;
  name: string | null;
  assignedEventId: number | null;
  createdAt: string;
  lastLogin: string | null;
}

export const toPublicUser = (user: UserRecord): PublicUser => ({
  id: user.id,
  email: user.email,
  name: user.name,
  role: user.role,
  assignedEventId: user.assignedEventId,
  createdAt: user.createdAt,
  lastLogin: user.lastLogin,
});

export function createUserRepository(table: Table, ids: Ids, clock: Clock) {
  return {
    async findByEmail(email: string): Promise<UserRecord | undefined> {
      const guard = await table.get<{ userId: string }>(keys.userEmail(email));
      if (!guard) return undefined;
      return table.get<UserRecord & { pk: string; sk: string }>(keys.user(guard.userId));
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

    /** Every account, oldest first (an organizer has tens, not thousands). */
    async list(): Promise<UserRecord[]> {
      const users: UserRecord[] = [];
      let cursor: Record<string, unknown> | undefined;
      do {
        const page = await table.query<UserRecord>({
          index: "gsi1",
          partition: usersIndexPartition,
          ...(cursor ? { cursor } : {}),
        });
        users.push(...page.items);
        cursor = page.cursor;
      } while (cursor);
      return users;
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

    async recordLogin(userId: string): Promise<void> {
      await table.update({ key: keys.user(userId), set: { lastLogin: clock.now().toISOString() } });
    },
  };
}
export type UserRepository = ReturnType<typeof createUserRepository>;
