import { timingSafeEqual } from "node:crypto";
import { messages } from "@dorsal/shared";
import type { APIGatewayProxyEventV2 } from "aws-lambda";
import { forbidden } from "../app/errors";
import type { Config } from "../config";

/** The header CloudFront adds to every API request it forwards (infra/lib/site.ts). */
export const originVerifyHeader = "x-origin-verify";

/**
 * On AWS, a request that did not come through CloudFront is refused before anything else: the
 * API's own endpoint would otherwise go around the web ACL, and let a caller name any viewer
 * address to the sign-in throttle. Locally the runtime is its own front door.
 */
export function assertThroughSite(config: Config, event: APIGatewayProxyEventV2): void {
  if (config.DORSAL_RUNTIME !== "aws") return;
  const expected = config.ORIGIN_VERIFY_SECRET;
  // The stack sets it on every HTTP function; without it no request could be trusted.
  if (!expected) throw new Error("ORIGIN_VERIFY_SECRET is not set for this HTTP function");
  const sent = Buffer.from(event.headers[originVerifyHeader] ?? "");
  const wanted = Buffer.from(expected);
  if (sent.length !== wanted.length || !timingSafeEqual(sent, wanted)) {
    throw forbidden(messages.directApiRefused);
  }
}
