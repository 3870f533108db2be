export interface Ids {
  /** Sortable, unguessable identifier (time-ordered prefix + random suffix). */
  newId(): string;
  /** URL-safe random token with at least 128 bits of entropy. */
  newToken(): string;
}
