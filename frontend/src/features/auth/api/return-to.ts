/** Spec §2.2: where an athlete lands after signing in when nothing else was asked for. */
export const defaultAthleteDestination = "/search";

const thisSite = "https://dorsal.invalid";

/**
 * The `returnTo` query value, only when it names a page of this site. Anything else ('//evil.co',
 * '/\\evil.co', 'https://…', 'javascript:…') would turn the login page into an open redirect.
 */
export function safeReturnTo(value: string | null): string {
  if (!value?.startsWith("/")) return defaultAthleteDestination;
  let url: URL;
  try {
    url = new URL(value, thisSite);
  } catch {
    return defaultAthleteDestination;
  }
  if (url.origin !== thisSite) return defaultAthleteDestination;
  return `${url.pathname}${url.search}${url.hash}`;
}
