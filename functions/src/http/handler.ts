import { messages, type Role } from "@dorsal/shared";
import middy from "@middy/core";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import type { ZodType } from "zod";
import type { Deps } from "../app/deps";
import { forbidden, invalid, notFound, unauthenticated } from "../app/errors";
import type { RequestClient } from "../app/throttle";
import { deviceTtlSeconds, type SessionClaims } from "../app/tokens";
import type { Logger } from "../logger";
import { errorResponse } from "./errors";
import { type MultipartForm, parseMultipart } from "./multipart";
import type { RouteKey } from "./routes";

export interface RouteContext<Body, Query, Params> {
  deps: Deps;
  body: Body;
  query: Query;
  params: Params;
  /** Present on every route that is not public. */
  session: SessionClaims | undefined;
  form: MultipartForm | undefined;
  event: APIGatewayProxyEventV2;
  /** Who sent the request, for the throttle of secrets typed by hand. */
  client: RequestClient;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  cookies?: string[];
}

export interface RouteSpec<Body = unknown, Query = unknown, Params = unknown> {
  /** "public", or the roles allowed; the server enforces it on every request. */
  access: "public" | readonly Role[];
  body?: ZodType<Body>;
  query?: ZodType<Query>;
  params?: ZodType<Params>;
  multipart?: boolean;
  run(context: RouteContext<Body, Query, Params>): Promise<Reply | object>;
}

/** A resource's routes: what one Lambda function serves. */
export type RouteTable = Partial<Record<RouteKey, RouteSpec>>;

/** Keeps each route's body/query/params types tied to its schemas. */
export const route = <Body = undefined, Query = undefined, Params = undefined>(spec: RouteSpec<Body, Query, Params>) =>
  spec as RouteSpec<unknown, unknown, unknown>;

export const reply = (status: number, body?: unknown, headers?: Record<string, string>, cookies?: string[]): Reply => ({
  status,
  body,
  ...(headers ? { headers } : {}),
  ...(cookies ? { cookies } : {}),
});

/** The cookie that makes a browser a known device of the account it signed in as (app/throttle.ts). */
export const deviceCookieName = "dorsal_dispositivo";

/**
 * The device cookie: sent only to the API, never readable by scripts, never sent by another site,
 * and only over TLS where the request came over TLS.
 */
export function deviceCookie(token: string, event: APIGatewayProxyEventV2): string {
  const https = (event.headers["cloudfront-forwarded-proto"] ?? event.headers["x-forwarded-proto"]) === "https";
  return `${deviceCookieName}=${token}; Path=/api; Max-Age=${deviceTtlSeconds}; HttpOnly; SameSite=Strict${https ? "; Secure" : ""}`;
}

/**
 * The client's address: CloudFront's report of the viewer in AWS (API Gateway sees only the edge
 * server), else the connection's; and its device cookie. The local runtime drops any
 * `cloudfront-*` header a client sends (functions/local/http-bridge.ts).
 */
export function requestClient(event: APIGatewayProxyEventV2): RequestClient {
  const viewer = event.headers["cloudfront-viewer-address"];
  // "198.51.100.10:46532", or an IPv6 address followed by ":port".
  const ip = viewer ? viewer.slice(0, viewer.lastIndexOf(":")) : event.requestContext.http.sourceIp;
  const prefix = `${deviceCookieName}=`;
  const deviceToken = event.cookies?.find((cookie) => cookie.startsWith(prefix))?.slice(prefix.length);
  return { ip, deviceToken };
}

function rawBody(event: APIGatewayProxyEventV2): Buffer {
  if (!event.body) return Buffer.alloc(0);
  return Buffer.from(event.body, event.isBase64Encoded ? "base64" : "utf8");
}

function parseJson(event: APIGatewayProxyEventV2): unknown {
  const raw = rawBody(event).toString("utf8");
  if (!raw) return {};
  try {
    return JSON.parse(raw);
  } catch {
    throw invalid("El cuerpo de la petición no es JSON válido");
  }
}

function bearerToken(event: APIGatewayProxyEventV2): string | undefined {
  const header = event.headers.authorization ?? event.headers.Authorization;
  const match = header ? /^Bearer\s+(.+)$/i.exec(header) : null;
  return match?.[1];
}

async function authorize(deps: Deps, spec: RouteSpec, event: APIGatewayProxyEventV2) {
  const token = bearerToken(event);
  const session = token ? await deps.tokens.verify(token) : undefined;
  if (spec.access === "public") return session;
  if (!session) throw unauthenticated(messages.unauthorized);
  if (!spec.access.includes(session.role)) throw forbidden(messages.forbidden);
  return session;
}

const isReply = (value: object): value is Reply => "status" in value && typeof value.status === "number";

/**
 * One Lambda handler for a resource's routes: middy runs the shared stack (error mapping), the
 * route's zod schemas validate everything that comes in, and access is checked before any use case
 * runs. The same function serves API Gateway and the local runtime.
 */
export function createHttpHandler(routes: RouteTable, loadDeps: () => Promise<{ deps: Deps; logger: Logger }>) {
  const base = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    const spec = routes[event.routeKey as RouteKey];
    if (!spec) throw notFound(messages.notFound);
    const { deps } = await loadDeps();
    const session = await authorize(deps, spec, event);
    const form = spec.multipart ? await parseMultipart(rawBody(event), event.headers["content-type"]) : undefined;
    const result = await spec.run({
      deps,
      session,
      form,
      event,
      client: requestClient(event),
      body: spec.body ? spec.body.parse(parseJson(event)) : undefined,
      query: spec.query ? spec.query.parse(event.queryStringParameters ?? {}) : undefined,
      params: spec.params ? spec.params.parse(event.pathParameters ?? {}) : undefined,
    });
    const { status, body, headers, cookies } = isReply(result) ? result : { status: 200, body: result };
    return {
      statusCode: status,
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
      ...(cookies ? { cookies } : {}),
      body: body === undefined ? "" : JSON.stringify(body),
    };
  };

  const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>(base).use({
    onError: async (request) => {
      const loaded = await loadDeps().catch(() => undefined);
      request.response = errorResponse(request.error, (message, cause) =>
        (loaded?.logger ?? console).error(message, cause),
      );
    },
  });
  /**
   * For a server that holds the body itself (the local runtime): answers whether the caller may
   * use the route at all, from the headers alone, so a large body is never read for someone who
   * may not send it. An error response when not; undefined when so.
   */
  const refusal = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2 | undefined> => {
    const loaded = await loadDeps();
    try {
      const spec = routes[event.routeKey as RouteKey];
      if (!spec) throw notFound(messages.notFound);
      await authorize(loaded.deps, spec, event);
      return undefined;
    } catch (error) {
      return errorResponse(error, (message, cause) => loaded.logger.error(message, cause));
    }
  };
  // The route table travels with the handler so the access-matrix test checks every declared route.
  return Object.assign(handler, { routes, refusal });
}
