/**
 * The browser-facing security headers, defined once: CloudFront's response headers policies send
 * them in AWS (infra/lib/site.ts) and the local runtime sends the same (functions/local/runtime.ts),
 * which phones on a race-day LAN reach as directly as the internet reaches CloudFront.
 */

/**
 * The app's pages: scripts only from our origin; Chakra UI injects styles at run time; uploads
 * and images go to `storageOrigins` besides our own (S3 presigned URLs in AWS, the LAN address
 * locally when the page was opened under another name); nothing may frame the app.
 */
export function appContentSecurityPolicy(storageOrigins: readonly string[]): string {
  const storage = storageOrigins.length ? ` ${storageOrigins.join(" ")}` : "";
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${storage}`,
    "font-src 'self' data:",
    `connect-src 'self'${storage}`,
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Files from the object store are data, never a page: whatever one holds, nothing in it runs. */
export const storedFileContentSecurityPolicy = "default-src 'none'; sandbox";

export const referrerPolicy = "strict-origin-when-cross-origin";

/** One year, subdomains included: only ever sent over HTTPS, as browsers ignore it otherwise. */
export const strictTransportSecurityMaxAgeSeconds = 365 * 24 * 3600;

/** Headers of every app response (pages, API); HSTS only where the origin is served over TLS. */
export function appSecurityHeaders(options: { storageOrigins: readonly string[]; https: boolean }) {
  return {
    "Content-Security-Policy": appContentSecurityPolicy(options.storageOrigins),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": referrerPolicy,
    ...(options.https
      ? { "Strict-Transport-Security": `max-age=${strictTransportSecurityMaxAgeSeconds}; includeSubDomains` }
      : {}),
  };
}

/** Headers of every stored file served; originals also download instead of opening. */
export function storedFileHeaders(options: { original: boolean; https: boolean }) {
  return {
    "Content-Security-Policy": storedFileContentSecurityPolicy,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": referrerPolicy,
    ...(options.original ? { "Content-Disposition": "attachment" } : {}),
    ...(options.https
      ? { "Strict-Transport-Security": `max-age=${strictTransportSecurityMaxAgeSeconds}; includeSubDomains` }
      : {}),
  };
}
