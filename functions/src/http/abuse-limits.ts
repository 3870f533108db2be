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
 * every client together: what one sign-in costs (scrypt, ~0.1–0.2 s of a core at 1024 MB) keeps
 * 20/s at ~4 busy functions; search and a bib's photos at 100/s stay inside the concurrency the
 * API's functions share with the pipeline on race day (docs/capacity.md).
 */
export const routeThrottles: Record<string, { rate: number; burst: number }> = {
  "POST /api/auth/login": { rate: 20, burst: 40 },
  "POST /api/auth/athlete-register": { rate: 20, burst: 40 },
  "POST /api/download-codes/validate": { rate: 20, burst: 40 },
  "POST /api/notifications": { rate: 20, burst: 40 },
  "GET /api/photos/search": { rate: 100, burst: 200 },
  "GET /api/events/{id}/photos/{dorsal}/all": { rate: 100, burst: 200 },
};

/** The stage's own ceiling for every other route. */
export const stageThrottle = { rate: 200, burst: 400 } as const;

export const tooManyRequestsBody = { success: false, error: messages.tooManyRequests } as const;
