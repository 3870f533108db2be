import { setTimeout as sleep } from "node:timers/promises";
import {
  type ChangePasswordRequest,
  type LoginRequest,
  messages,
  type PasswordChangedResponse,
  type PublicUser,
  tooManyLoginAttemptsMessage,
} from "@dorsal/shared";
import { passwordVersionOf } from "../data/credentials";
import { toPublicUser, type UserRecord } from "../data/users";
import type { Deps } from "./deps";
import { AppError, invalid, notFound, unauthenticated } from "./errors";
import { attemptWindow, attemptWindowExpiry, lockEnd, loginThrottle, minutesLeft, slowdownMs } from "./login-throttle";
import { hashPassword, verifyPassword } from "./passwords";
import type { SessionClaims } from "./tokens";

/** A precomputed hash so that an unknown email costs the same time as a wrong password. */
let dummyHash: Promise<string> | undefined;

const lockedOut = (minutes: number) => new AppError("too_many", tooManyLoginAttemptsMessage(minutes));

/**
 * Runs one password check for `email` under the throttle (app/login-throttle.ts):
 * 1. a locked email is refused with 429 before any password is looked at;
 * 2. the attempt is counted first (atomic ADD), so parallel guesses cannot all pass the limit;
 * 3. after a few failures each attempt waits before the check;
 * 4. a failure that reaches the limit locks the email; a success clears its count.
 */
export async function throttledCheck(deps: Deps, email: string, check: () => Promise<boolean>): Promise<boolean> {
  const now = deps.clock.now();
  const current = attemptWindow(now);
  const previous = current - 1;
  const { lockedUntil, attempts: earlier } = await deps.loginAttempts.read(email, previous);
  if (lockedUntil && lockedUntil > now) throw lockedOut(minutesLeft(lockedUntil, now));

  const attempts = earlier + (await deps.loginAttempts.count(email, current, attemptWindowExpiry(current)));
  if (attempts > loginThrottle.maxFailures) {
    // Only guesses that raced past the lock's write (or a lock lost to a crash) get here: lock now.
    await deps.loginAttempts.lock(email, lockEnd(now));
    throw lockedOut(loginThrottle.lockMinutes);
  }
  const delay = slowdownMs(attempts - 1);
  if (delay > 0) await sleep(delay);

  if (await check()) {
    await deps.loginAttempts.clear(email, [previous, current]);
    return true;
  }
  if (attempts >= loginThrottle.maxFailures) await deps.loginAttempts.lock(email, lockEnd(deps.clock.now()));
  return false;
}

/**
 * Signs a user in:
 * 1. under the throttle, whether or not the email has an account (lockout reveals nothing);
 * 2. find the user by email (an unknown email still pays for one hash, so timing reveals nothing);
 * 3. verify the password against the scrypt hash;
 * 4. record the login time and issue a session token bound to the password's version.
 */
export async function login(deps: Deps, input: LoginRequest): Promise<{ token: string; user: PublicUser }> {
  const user = await deps.users.findByEmail(input.email);
  const accepted = await throttledCheck(deps, input.email, async () => {
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
  return { token, user: toPublicUser({ ...user, lastLogin: deps.clock.now().toISOString() }) };
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
): Promise<PasswordChangedResponse> {
  const user = await deps.users.get(session.userId);
  if (!user) throw unauthenticated(messages.unauthorized);
  const refused = invalid(messages.changePasswordFailed, [
    { path: "currentPassword", message: messages.changePasswordFailed },
  ]);
  if (!(await throttledCheck(deps, user.email, () => verifyPassword(input.currentPassword, user.passwordHash)))) {
    throw refused;
  }
  const version = await deps.credentials.replacePassword(
    user.id,
    await hashPassword(input.newPassword),
    user.passwordHash,
  );
  if (version === undefined) throw refused;
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
  const window = attemptWindow(deps.clock.now());
  await deps.loginAttempts.clear(user.email, [window - 1, window]);
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
