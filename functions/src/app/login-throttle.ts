/**
 * Throttling policy of every secret typed by hand (passwords, download codes), in one place.
 * Attempts are counted per subject (an email, known or not, so a lockout tells nothing about which
 * accounts exist; an event's bib) and per client (app/throttle.ts) in fixed windows of half the
 * failure period: the current window plus the previous one never look back further than
 * `failurePeriodMinutes`.
 */
export const loginThrottle = {
  /** Failed attempts of one client within the period that lock that client out of the subject. */
  maxFailures: 5,
  /**
   * Attempts of all clients together at one account's password within the period that lock every
   * client without a trusted device: ten addresses' worth of guesses, far above any honest use.
   */
  untrustedCeiling: 50,
  failurePeriodMinutes: 15,
  /** At least the failure period, so the failures that caused a lock have left the count when it ends. */
  lockMinutes: 15,
  /** Failures after which each further attempt waits before the password is checked… */
  slowAfterFailures: 3,
  /** …this long, doubling with every further failure up to the maximum. */
  slowdownMs: 500,
  maxSlowdownMs: 2000,
} as const;

const windowMs = (loginThrottle.failurePeriodMinutes * 60_000) / 2;

/** The fixed window `now` falls in, numbered from the epoch. */
export const attemptWindow = (now: Date): number => Math.floor(now.getTime() / windowMs);

/** When a window's count no longer matters: once the window after it has ended too. */
export const attemptWindowExpiry = (window: number): Date => new Date((window + 2) * windowMs);

export const lockEnd = (now: Date): Date => new Date(now.getTime() + loginThrottle.lockMinutes * 60_000);

/** Whole minutes until the lock ends, never 0 while it still holds. */
export const minutesLeft = (lockedUntil: Date, now: Date): number =>
  Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 60_000));

/**
 * How long an attempt waits before its password is checked, given the failures before it: a
 * guesser pays for every try, a user who mistyped once or twice does not.
 */
export function slowdownMs(priorFailures: number): number {
  const { slowAfterFailures, slowdownMs: base, maxSlowdownMs } = loginThrottle;
  if (priorFailures < slowAfterFailures) return 0;
  return Math.min(base * 2 ** (priorFailures - slowAfterFailures), maxSlowdownMs);
}
