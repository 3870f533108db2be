import { type ErrorResponse, messages } from "@dorsal/shared";
import type { APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import { ZodError } from "zod";
import { AppError, type ErrorKind } from "../app/errors";
import { InvalidCursorError } from "../ports/table";

/** The one place where failures become HTTP status codes. */
const statusByKind: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported: 415,
  too_many: 429,
  gone: 410,
  unavailable: 503,
};

export function errorResponse(error: unknown, log: (message: string, error: unknown) => void) {
  const body = (status: number, payload: ErrorResponse): APIGatewayProxyStructuredResultV2 => ({
    statusCode: status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
    body: JSON.stringify(payload),
  });
  if (error instanceof AppError) {
    return body(statusByKind[error.kind], {
      success: false,
      error: error.message,
      ...(error.details ? { details: error.details } : {}),
    });
  }
  // middy gives up just before the function's own timeout: the client gets what API Gateway answers
  // a timed-out integration, while the work may still finish.
  if (error instanceof Error && error.name === "TimeoutError") {
    log("Request timed out", error);
    return body(503, { success: false, error: messages.requestTimedOut });
  }
  // Well-formed (decodeCursor checked its shape), yet a position the query never gave out.
  if (error instanceof InvalidCursorError) return body(400, { success: false, error: messages.invalidCursor });
  if (error instanceof ZodError) {
    const details = error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }));
    return body(400, { success: false, error: details[0]?.message ?? messages.invalidRequest, details });
  }
  // Anything else is our bug or an outage: log it whole, tell the client nothing internal.
  log("Unhandled error", error);
  return body(500, { success: false, error: messages.internalError });
}
