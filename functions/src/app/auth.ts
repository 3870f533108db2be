import {
  type ChangePasswordRequest,
  type LoginRequest,
  messages,
  type PasswordChangedResponse,
  type PublicUser,
} from "@dorsal/shared";
import { passwordVersionOf } from "../data/credentials";
import { toPublicUser, type UserRecord } from "../data/users";
import type { Deps } from "./deps";
import { invalid, notFound, unauthenticated } from "./errors";
import { loginThrottle } from "./login-throttle";
import { hashPassword, verifyPassword } from "./passwords";
import { passwordClient, type RequestClient, throttledCheck } from "./throttle";
import type { SessionClaims } from "./tokens";

/** A precomputed hash so that an unknown email costs the same time as a wrong password. */
let dummyHash: Promise<string> | undefined;

/**
 * One password check of the account `email` under the throttle (app/throttle.ts): counted for this
 * client alone, and with every client's together against the ceiling of untrusted attempts.
 */
export async function throttledPasswordCheck(
  deps: Deps,
  email: string,
  client: RequestClient,
  check: () => Promise<boolean>,
): Promise<boolean> {
  return throttledCheck(deps, email, await passwordClient(deps, client, email), check, {
    untrustedCeiling: loginThrottle.untrustedCeiling,
  });
}

/**
 * Signs a user in:
 * 1. under the throttle, whether or not the email has an account (lockout reveals nothing);
 * 2. find the user by email (an unknown email still pays for one hash, so timing reveals nothing);
 * 3. verify the password against the scrypt hash;
 * 4. record the login time and issue a session token bound to the password's version, and a
 *    device token that makes this browser a known device of the account for the throttle.
 */
export async function login(
  deps: Deps,
  input: LoginRequest,
  client: RequestClient,
): Promise<{ token: string; user: PublicUser; deviceToken: string }> {
  const user = await deps.users.findByEmail(input.email);
  const accepted = await throttledPasswordCheck(deps, input.email, client, async () => {
    if (user) return verifyPassword(input.password, user.passwordHash);
    dummyHash ??= hashPassword("dorsal-timing-equaliser");
    await verifyPassword(input.password, await dummyHash);
    return false;
  });
  if (!user || !accepted) throw unauthenticated(messages.invalidCredentials);
  await deps.users.recordLogin(user.id);
  const token = await deps.tokens.issue({
    userId: user.id,
    email: user.email,
    role: user.role,
    passwordVersion: passwordVersionOf(user),
  });
  return {
    token,
    user: toPublicUser({ ...user, lastLogin: deps.clock.now().toISOString() }),
    deviceToken: await deps.tokens.issueDevice(user.email),
  };
}

/** By id, not by the token's email: an admin may have changed the account's email since. */
export async function currentUser(deps: Deps, session: SessionClaims): Promise<PublicUser> {
  const user = await deps.users.get(session.userId);
  if (!user) throw unauthenticated(messages.unauthorized);
  return toPublicUser(user);
}

/**
 * 'Cambiar contraseña' (spec §2.7, §5):
 * 1. the current password is checked under the sign-in throttle, so a left-open session cannot be
 *    used to guess it;
 * 2. the new hash replaces the old one only if the password is still the one just checked;
 * 3. every earlier session of the account stops working (version bump); this one gets a new token.
 * A wrong current password is a 400, not a 401: the session itself is fine and must not be dropped.
 */
export async function changePassword(
  deps: Deps,
  session: SessionClaims,
  input: ChangePasswordRequest,
  client: RequestClient,
): Promise<PasswordChangedResponse> {
  const user = await deps.users.get(session.userId);
  if (!user) throw unauthenticated(messages.unauthorized);
  const refused = invalid(messages.changePasswordFailed, [
    { path: "currentPassword", message: messages.changePasswordFailed },
  ]);
  const checked = () => verifyPassword(input.currentPassword, user.passwordHash);
  if (!(await throttledPasswordCheck(deps, user.email, client, checked))) {
    throw refused;
  }
  const version = await deps.credentials.replacePassword(
    user.id,
    await hashPassword(input.newPassword),
    user.passwordHash,
  );
  if (version === undefined) throw refused;
  deps.tokens.forget(user.id);
  return { success: true, token: await reissueSession(deps, user, version) };
}

/**
 * An admin sets an account's password (spec §6 protected path PUT /api/users/{id}/password): the
 * account's sessions end and any lockout of its email is lifted, so its owner can sign in at once.
 */
export async function setUserPassword(
  deps: Deps,
  session: SessionClaims,
  userId: string,
  newPassword: string,
): Promise<PasswordChangedResponse> {
  const user = await deps.users.get(userId);
  if (!user) throw notFound(messages.userNotFound);
  const version = await deps.credentials.replacePassword(user.id, await hashPassword(newPassword));
  if (version === undefined) throw notFound(messages.userNotFound);
  deps.tokens.forget(user.id);
  await deps.loginAttempts.clearSubject(user.email);
  if (user.id !== session.userId) return { success: true };
  // Admins setting their own password this way keep their session, as with change-password.
  return { success: true, token: await reissueSession(deps, user, version) };
}

/** A password change ends every session but the one that made it: that one gets a fresh token. */
function reissueSession(deps: Deps, user: UserRecord, passwordVersion: number): Promise<string> {
  return deps.tokens.issue({ userId: user.id, email: user.email, role: user.role, passwordVersion });
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
