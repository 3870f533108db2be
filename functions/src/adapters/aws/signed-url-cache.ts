import type { BucketRole } from "../../ports/object-store";

/**
 * Signing is the dearest part of a search answer (two URLs a photo: an RSA signature on AWS, a
 * SigV4 presign locally), and on race day thousands of athletes ask for the same photos. A signed
 * URL of a derived image is therefore reused while it can keep the signer's promise: valid for at
 * least the asked lifetime from the moment it is handed out.
 *
 * How: expiries are rounded up to the next multiple of a window (a quarter of the lifetime), and
 * one URL is signed per (bucket, key, rounded expiry). Every URL handed out lives at least the
 * asked lifetime and at most a quarter longer; each is reused for up to a window.
 *
 * Originals (purchases, download codes) are never cached: each download gets its own URL with
 * exactly the asked lifetime.
 */
export const reuseWindowShare = 4;

export interface SignedUrlCache {
  /** The URL for `key`, signed by `sign` to expire at the given moment unless one still valid long enough is cached. */
  get(
    bucket: BucketRole,
    key: string,
    expiresInSeconds: number,
    sign: (expiresAt: Date, signedAt: Date) => Promise<string>,
  ): Promise<string>;
}

/** What the cache did since its last report, and its size then: the dashboard's cache figures. */
export interface UrlCacheReport {
  hits: number;
  misses: number;
  evictions: number;
  entries: number;
  /** Characters of the URLs held, about their bytes. */
  bytes: number;
}

/** A busy process reports this often, on the first request after the period (never on an idle one). */
export const urlCacheReportEveryMs = 15_000;

export function createSignedUrlCache(options: {
  clock: () => Date;
  maxEntries: number;
  report?: (report: UrlCacheReport) => void;
}): SignedUrlCache {
  // A Map iterates in insertion order: re-inserting on every hit makes the first entry the least recently used.
  const entries = new Map<string, Promise<string>>();
  const sizes = new Map<string, number>();
  let counts = { hits: 0, misses: 0, evictions: 0 };
  let bytes = 0;
  let reportedAt = options.clock().getTime();
  const forget = (cacheKey: string) => {
    entries.delete(cacheKey);
    bytes -= sizes.get(cacheKey) ?? 0;
    sizes.delete(cacheKey);
  };
  const reportIfDue = (now: Date) => {
    if (!options.report || now.getTime() - reportedAt < urlCacheReportEveryMs) return;
    options.report({ ...counts, entries: entries.size, bytes });
    counts = { hits: 0, misses: 0, evictions: 0 };
    reportedAt = now.getTime();
  };
  return {
    get(bucket, key, expiresInSeconds, sign) {
      const now = options.clock();
      reportIfDue(now);
      // Whole seconds: SigV4 states both the signing time and the lifetime in seconds.
      const signedAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
      if (bucket === "originals") return sign(new Date(signedAt.getTime() + expiresInSeconds * 1000), signedAt);
      const windowSeconds = Math.max(1, Math.floor(expiresInSeconds / reuseWindowShare));
      // Rounded up: a URL handed out at 08:00:00.4 must still work at 09:00:00.4.
      const earliestExpiry = Math.ceil(now.getTime() / 1000) + expiresInSeconds;
      const expiresAt = new Date(Math.ceil(earliestExpiry / windowSeconds) * windowSeconds * 1000);
      const cacheKey = `${bucket}\n${key}\n${expiresInSeconds}\n${expiresAt.getTime()}`;
      const cached = entries.get(cacheKey);
      if (cached) {
        counts.hits++;
        entries.delete(cacheKey);
        entries.set(cacheKey, cached);
        return cached;
      }
      counts.misses++;
      const signed = sign(expiresAt, signedAt);
      entries.set(cacheKey, signed);
      signed.then(
        (url) => {
          if (entries.get(cacheKey) !== signed) return;
          sizes.set(cacheKey, url.length);
          bytes += url.length;
        },
        // A failed signature is not kept: the next request signs again.
        () => forget(cacheKey),
      );
      while (entries.size > options.maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        forget(oldest);
        counts.evictions++;
      }
      return signed;
    },
  };
}

/** Two URLs a photo: this keeps the public copies of tens of thousands of photos signed (~1 kB each). */
export const signedUrlCacheEntries = 20_000;
