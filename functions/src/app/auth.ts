import { type LoginRequest, messages, type PublicUser } from "@dorsal/shared";
import { toPublicUser } from "../data/users";
import type { Deps } from "./deps";
import { unauthenticated } from "./errors";
import { hashPassword, verifyPassword } from "./passwords";
import type { SessionClaims } from "./tokens";

/** A precomputed hash so that an unknown email costs the same time as a wrong password. */
let dummyHash: Promise<string> | undefined;

/**
 * Signs a user in:
 * 1. find the user by email (an unknown email still pays for one hash, so timing reveals nothing);
 * 2. verify the password against the scrypt hash;
 * 3. record the login time and issue a session token.
 */
export async function login(deps: Deps, input: LoginRequest): Promise<{ token: string; user: PublicUser }> {
  const user = await deps.users.findByEmail(input.email);
  if (!user) {
    dummyHash ??= hashPassword("dorsal-timing-equaliser");
    await verifyPassword(input.password, await dummyHash);
    throw unauthenticated(messages.invalidCredentials);
  }
  if (!(await verifyPassword(input.password, user.passwordHash))) throw unauthenticated(messages.invalidCredentials);
  await deps.users.recordLogin(user.id);
  const token = await deps.tokens.issue({ userId: user.id, email: user.email, role: user.role });
  return { token, user: toPublicUser({ ...user, lastLogin: deps.clock.now().toISOString() }) };
}

export async function currentUser(deps: Deps, session: SessionClaims): Promise<PublicUser> {
  const user = await deps.users.findByEmail(session.email);
  if (!user || user.id !== session.userId) throw unauthenticated(messages.unauthorized);
  return toPublicUser(user);
}

/**
 * Makes sure an admin exists on first start. Returns the password only when it generated one, so
 * the runtime can print it once; afterwards only its hash exists.
 */
export async function ensureAdmin(
  deps: Deps,
  options: { email: string; password?: string },
): Promise<{ created: boolean; generatedPassword?: string }> {
  if (await deps.users.findByEmail(options.email)) return { created: false };
  const generatedPassword = options.password ? undefined : deps.ids.newToken().slice(0, 16);
  const password = options.password ?? (generatedPassword as string);
  const created = await deps.users.create({
    email: options.email,
    passwordHash: await hashPassword(password),
    role: "admin",
    name: "Administrador",
    assignedEventId: null,
  });
  return created ? { created: true, ...(generatedPassword ? { generatedPassword } : {}) } : { created: false };
}
