import { isSecretPath, isUploadPath, perAddressLimits, routeThrottles } from "../src/http/abuse-limits";

/** Why a request was refused and when the client may try again. */
export interface Refusal {
  retryAfterSeconds: number;
}

/** Addresses remembered at most; past it, those whose window ended are forgotten first. */
const maxAddresses = 50_000;

/**
 * The local runtime's mirror of the limits AWS applies in front of the API (functions/src/http/abuse-limits.ts):
 * per client address, its `/api/` requests and its sign-in or code attempts in a one-minute window,
 * like the WAF's rate rules; per route, a token bucket for every client together, like API
 * Gateway's route throttles. Counted in memory: a restart forgets them, as a new WAF window would.
 */
export function createRateLimiter(now: () => number = Date.now) {
  const windowMs = perAddressLimits.windowSeconds * 1000;
  const addresses = new Map<string, { windowStart: number; api: number; secrets: number }>();
  const buckets = new Map<string, { tokens: number; at: number }>();

  const forgetEnded = (at: number) => {
    for (const [address, counts] of addresses) if (at - counts.windowStart >= windowMs) addresses.delete(address);
  };

  /** Counts one request of `address` to `routeKey` (`GET /api/photos/search`); a refusal when over a limit. */
  return (address: string, routeKey: string, path: string): Refusal | undefined => {
    const at = now();
    let counts = addresses.get(address);
    if (!counts || at - counts.windowStart >= windowMs) {
      if (!counts && addresses.size >= maxAddresses) forgetEnded(at);
      counts = { windowStart: at, api: 0, secrets: 0 };
      addresses.set(address, counts);
    }
    const counted = !isUploadPath(path);
    if (counted) counts.api++;
    const secret = isSecretPath(path);
    if (secret) counts.secrets++;
    // As the WAF's rules: each limit holds back only the requests it counts.
    if (
      (counted && counts.api > perAddressLimits.apiPerAddress) ||
      (secret && counts.secrets > perAddressLimits.secretsPerAddress)
    ) {
      return { retryAfterSeconds: Math.max(1, Math.ceil((counts.windowStart + windowMs - at) / 1000)) };
    }
    const throttle = routeThrottles[routeKey];
    if (!throttle) return undefined;
    const bucket = buckets.get(routeKey) ?? { tokens: throttle.burst, at };
    bucket.tokens = Math.min(throttle.burst, bucket.tokens + ((at - bucket.at) / 1000) * throttle.rate);
    bucket.at = at;
    buckets.set(routeKey, bucket);
    if (bucket.tokens < 1) return { retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / throttle.rate)) };
    bucket.tokens--;
    return undefined;
  };
}
