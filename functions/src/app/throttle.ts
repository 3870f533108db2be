import { setTimeout as sleep } from "node:timers/promises";
import { tooManyLoginAttemptsMessage } from "@dorsal/shared";
import type { Deps } from "./deps";
import { AppError } from "./errors";
import { attemptWindow, attemptWindowExpiry, lockEnd, loginThrottle, minutesLeft, slowdownMs } from "./login-throttle";

/**
 * Who is trying a secret, as the HTTP layer sees them: the address the request came from (the
 * socket locally; the viewer's, as CloudFront reports it, in AWS) and the device token the browser
 * carried, if any.
 */
export interface RequestClient {
  ip: string;
  deviceToken?: string | undefined;
}

/** A client as a subject's counters know it: one of its trusted devices, or an address. */
interface ThrottleClient {
  key: string;
  trusted: boolean;
}

/** Every client together, for the ceiling of untrusted attempts. */
const allClients = "*";
/** The lock that holds every client without a trusted device of the subject. */
const untrustedClients = "sin-dispositivo";

const lockedOut = (minutes: number) => new AppError("too_many", tooManyLoginAttemptsMessage(minutes));

/**
 * The client a sign-in (or a password re-check) is counted as: a browser that signed in as this
 * email before carries a device token for it and is counted apart from every other client, so no
 * stranger can lock its owner out; anything else is counted by its address.
 */
export async function passwordClient(deps: Deps, client: RequestClient, email: string): Promise<ThrottleClient> {
  const device = client.deviceToken ? await deps.tokens.deviceOf(client.deviceToken, email) : undefined;
  return device ? { key: `dispositivo:${device}`, trusted: true } : addressClient(client);
}

/** Download codes have no devices: every client is its address. */
export const addressClient = (client: RequestClient): ThrottleClient => ({ key: `ip:${client.ip}`, trusted: false });

/**
 * Runs one check of a secret of `subject` (an email, an event's bib) for `client` under the
 * throttle (app/login-throttle.ts):
 * 1. a locked client is refused with 429 before any secret is looked at;
 * 2. the attempt is counted first (atomic ADD), so parallel guesses cannot all pass the limit;
 * 3. after a few failures each attempt of that client waits before the check;
 * 4. a failure that reaches the limit locks that client for this subject, and no other; a success
 *    clears that client's count.
 * With `untrustedCeiling` (passwords), every client's attempts also count together: past the
 * ceiling (many addresses guessing one account) the subject is locked for every client without a
 * trusted device, while its owner's known browsers still get in. Download codes need no ceiling:
 * 31^8 codes cannot be guessed at five tries per address.
 */
export async function throttledCheck(
  deps: Deps,
  subject: string,
  client: ThrottleClient,
  check: () => Promise<boolean>,
  options: { untrustedCeiling?: number } = {},
): Promise<boolean> {
  const ceiling = options.untrustedCeiling;
  const now = deps.clock.now();
  const current = attemptWindow(now);
  const previous = current - 1;
  const lockClients = ceiling !== undefined && !client.trusted ? [client.key, untrustedClients] : [client.key];
  const countClients = ceiling !== undefined ? [client.key, allClients] : [client.key];
  const earlier = await deps.loginAttempts.read(subject, lockClients, countClients, previous);
  if (earlier.lockedUntil && earlier.lockedUntil > now) throw lockedOut(minutesLeft(earlier.lockedUntil, now));

  const expiry = attemptWindowExpiry(current);
  const [mine, everyone] = await Promise.all(
    countClients.map(
      async (key) => (earlier.attempts.get(key) ?? 0) + (await deps.loginAttempts.count(subject, key, current, expiry)),
    ),
  );
  const attempts = mine ?? 0;
  const clientOver = attempts > loginThrottle.maxFailures;
  const untrustedOver = ceiling !== undefined && !client.trusted && (everyone ?? 0) > ceiling;
  if (clientOver || untrustedOver) {
    // Only guesses that raced past the lock's write (or a lock lost to a crash) get here: lock now.
    await deps.loginAttempts.lock(subject, clientOver ? client.key : untrustedClients, lockEnd(now));
    throw lockedOut(loginThrottle.lockMinutes);
  }
  const delay = slowdownMs(attempts - 1);
  if (delay > 0) await sleep(delay);

  if (await check()) {
    await Promise.all([
      deps.loginAttempts.clear(subject, client.key, [previous, current]),
      // A right password is not a guess: it leaves the all-clients count as it was.
      ceiling !== undefined ? deps.loginAttempts.count(subject, allClients, current, expiry, -1) : undefined,
    ]);
    return true;
  }
  const lockedUntil = lockEnd(deps.clock.now());
  if (attempts >= loginThrottle.maxFailures) await deps.loginAttempts.lock(subject, client.key, lockedUntil);
  if (ceiling !== undefined && (everyone ?? 0) >= ceiling) {
    await deps.loginAttempts.lock(subject, untrustedClients, lockedUntil);
  }
  return false;
}

/**
 * The same limit for a door honest clients knock on many times at once (an athlete's browser
 * downloading every photo of a code): only failures count, after the check, so right answers never
 * add up to a lock. Guesses in flight together may pass the limit by as many as are in flight; one
 * code in 31^8 does not mind.
 */
export async function failureThrottledCheck(
  deps: Deps,
  subject: string,
  client: ThrottleClient,
  check: () => Promise<boolean>,
): Promise<boolean> {
  const now = deps.clock.now();
  const current = attemptWindow(now);
  const earlier = await deps.loginAttempts.read(subject, [client.key], [client.key], current - 1);
  if (earlier.lockedUntil && earlier.lockedUntil > now) throw lockedOut(minutesLeft(earlier.lockedUntil, now));
  if (await check()) return true;
  const failures =
    (earlier.attempts.get(client.key) ?? 0) +
    (await deps.loginAttempts.count(subject, client.key, current, attemptWindowExpiry(current)));
  if (failures >= loginThrottle.maxFailures)
    await deps.loginAttempts.lock(subject, client.key, lockEnd(deps.clock.now()));
  return false;
}
