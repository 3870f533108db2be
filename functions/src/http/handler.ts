import { messages, type Role } from "@dorsal/shared";
import middy from "@middy/core";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import type { ZodType } from "zod";
import type { Deps } from "../app/deps";
import { forbidden, invalid, notFound, unauthenticated } from "../app/errors";
import type { SessionClaims } from "../app/tokens";
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
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
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

/** Keeps each route's body/query/params types tied to its schemas. */
export const route = <Body = undefined, Query = undefined, Params = undefined>(spec: RouteSpec<Body, Query, Params>) =>
  spec as RouteSpec<unknown, unknown, unknown>;

export const reply = (status: number, body?: unknown, headers?: Record<string, string>): Reply => ({
  status,
  body,
  ...(headers ? { headers } : {}),
});

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
export function createHttpHandler(
  routes: Partial<Record<RouteKey, RouteSpec>>,
  loadDeps: () => Promise<{ deps: Deps; logger: Logger }>,
) {
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
      body: spec.body ? spec.body.parse(parseJson(event)) : undefined,
      query: spec.query ? spec.query.parse(event.queryStringParameters ?? {}) : undefined,
      params: spec.params ? spec.params.parse(event.pathParameters ?? {}) : undefined,
    });
    const { status, body, headers } = isReply(result) ? result : { status: 200, body: result, headers: undefined };
    return {
      statusCode: status,
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
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
  // The route table travels with the handler so the access-matrix test checks every declared route.
  return Object.assign(handler, { routes });
}
