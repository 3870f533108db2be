import { messages } from "@dorsal/shared";

/**
 * What one client, and one route, may ask of the API: the same figures for the WAF web ACL and
 * API Gateway's route throttles in AWS (infra/lib/web-acl.ts, infra/lib/stateless-stack.ts) and
 * for the local runtime's limiter (functions/local/rate-limiter.ts), which a race-day LAN reaches.
 */
export const perAddressLimits = {
  /** WAF's shortest evaluation window. */
  windowSeconds: 60,
  /**
   * Every `/api/` request of one address but the uploads'. An athlete's search is a handful of calls and an upload
   * one per photo, so a person stays far below; a scraper or a runaway retry loop does not. A
   * venue's Wi-Fi behind one address shares it: 600 a minute still carries ~100 athletes searching.
   */
  apiPerAddress: 600,
  /** Sign-in, sign-up and code checks of one address: guessing, not use (each account is throttled too). */
  secretsPerAddress: 60,
} as const;

/**
 * Where a password or a code is tried: what a guesser calls (downloads with a valid code are not
 * counted); and 'avísame', which sends email to whatever address is typed and takes emailed tokens.
 */
export const secretPaths = [
  "/api/auth/login",
  "/api/auth/athlete-register",
  "/api/download-codes/validate",
  "/api/notifications",
] as const;

export const isSecretPath = (path: string) => secretPaths.some((secret) => path.startsWith(secret));

/**
 * Uploads are not counted per address: a photographer at the finish line sends several hundred
 * photos a minute, each one to three calls (more for a multipart original), from one phone. They
 * need a photographer's or an admin's session, so a stranger's calls end in a cheap 401, within
 * the stage's throttle.
 */
export const uploadPaths = [
  "/api/photos/presign",
  "/api/photos/upload",
  "/api/photos/resume-upload",
  "/api/emergency/mobile-upload",
] as const;

export const isUploadPath = (path: string) => uploadPaths.some((upload) => path.startsWith(upload));

/**
 * Steady requests per second and burst of the routes that need less than the stage's 200/400, for
 * every client together. What one sign-in costs (scrypt, ~0.1–0.2 s of a core at 1024 MB) keeps
 * 20/s at ~4 busy functions. A bib's reads are sized by `readCeilingCores` from `npm run
 * bench:search`: a first look at a bib (its links, its photos, their signed URLs) cost 5.5–6.6 CPU ms
 * on 2026-12-01 (docs/capacity.md, Throttles), so 60/s is 0.33–0.40 of a core, with room for a
 * slower machine; 100/s, the figure before that measurement, was 0.55–0.66. 60/s is still 216,000
 * looks an hour, several times what every runner of a 40,000-runner race looking twice in the
 * hour after it would ask. The grid and the event lists, read once and then kept, cost ~0.25 ms a
 * request: the stage's 200/s is 0.05 of a core.
 */
export const routeThrottles: Record<string, { rate: number; burst: number }> = {
  "POST /api/auth/login": { rate: 20, burst: 40 },
  "POST /api/auth/athlete-register": { rate: 20, burst: 40 },
  "POST /api/download-codes/validate": { rate: 20, burst: 40 },
  "POST /api/notifications": { rate: 20, burst: 40 },
  "GET /api/photos/search": { rate: 60, burst: 120 },
  "GET /api/events/{id}/photos/{dorsal}/all": { rate: 60, burst: 120 },
};

/** The stage's own ceiling for every other route. */
export const stageThrottle = { rate: 200, burst: 400 } as const;

/**
 * What one read route's ceiling may cost the smallest machine Dorsal runs on (the local runtime on
 * 2 cores) when a crowd's requests are all first looks (nothing read or signed yet, as on race day,
 * when each athlete looks for their own bib): half a core, so photos keep being read beside the
 * busiest search. `npm run bench:search` measures each route's first-look CPU and prints its ceiling
 * × that cost against this budget (docs/capacity.md, Throttles).
 */
export const readCeilingCores = 0.5;

export const tooManyRequestsBody = { success: false, error: messages.tooManyRequests } as const;
