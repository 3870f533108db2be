import { type createUserRequest, messages, type PublicUser } from "@dorsal/shared";
import type { z } from "zod";
import { toPublicUser } from "../data/users";
import type { Deps } from "./deps";
import { conflict, forbidden, invalid, notFound } from "./errors";
import { hashPassword } from "./passwords";

type CreateUserInput = z.output<typeof createUserRequest>;

/**
 * 'Crear Usuario Fotógrafo' (spec §2.7):
 * 1. the assigned event must exist — it is the only event the photographer may upload to;
 * 2. the password is stored as a scrypt hash only;
 * 3. the email is claimed with a conditional write (no transactions), so a second account with the
 *    same email is refused even when both requests race.
 */
export async function createUser(deps: Deps, input: CreateUserInput): Promise<PublicUser> {
  if (!(await deps.events.get(input.assignedEventId))) {
    throw invalid(messages.eventNotFound, [{ path: "assignedEventId", message: messages.eventNotFound }]);
  }
  const created = await deps.users.create({
    email: input.email,
    passwordHash: await hashPassword(input.password),
    role: input.role,
    name: input.name,
    assignedEventId: input.assignedEventId,
  });
  if (!created) throw conflict(messages.emailTaken);
  return toPublicUser(created);
}

/** Every account, newest first, without password hashes. */
export async function listUsers(deps: Deps): Promise<PublicUser[]> {
  const users = await deps.users.list();
  return users.map(toPublicUser).reverse();
}

/** Deletes a non-admin account; a deleted photographer's uploads are refused at once (the upload check reads the account). */
export async function deleteUser(deps: Deps, userId: string): Promise<{ success: true }> {
  const user = await deps.users.get(userId);
  if (!user) throw notFound(messages.userNotFound);
  if (user.role === "admin") throw forbidden(messages.adminNotDeletable);
  await deps.users.delete(user);
  return { success: true };
}
