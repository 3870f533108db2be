/**
 * Failures the use cases report. Each carries a kind, and `http/errors.ts` maps kinds to status
 * codes in one table, so a renamed class can never silently become a 500.
 */
export type ErrorKind =
  | "invalid"
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "too_large"
  | "unsupported"
  | "too_many"
  | "gone"
  | "unavailable";

export interface ErrorDetail {
  path: string;
  message: string;
}

export class AppError extends Error {
  override name = "AppError";
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
  }
}

export const invalid = (message: string, details?: ErrorDetail[]) => new AppError("invalid", message, details);
export const unauthenticated = (message: string) => new AppError("unauthenticated", message);
export const forbidden = (message: string) => new AppError("forbidden", message);
export const notFound = (message: string) => new AppError("not_found", message);
export const conflict = (message: string) => new AppError("conflict", message);
export const tooLarge = (message: string) => new AppError("too_large", message);
export const unsupported = (message: string) => new AppError("unsupported", message);
/** Existed and no longer does (an expired download link). */
export const gone = (message: string) => new AppError("gone", message);
/**
 * A provider we depend on (the payment gateway) cannot be reached or is not configured, or we are
 * too busy to take the request now (password hashing's queue is full).
 */
export const unavailable = (message: string) => new AppError("unavailable", message);

/** Pipeline failures that no retry can fix; the state machine skips its retriers for this name. */
export class PermanentError extends Error {
  override name = "PermanentError";
}
