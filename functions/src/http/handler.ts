import { messages } from "@dorsal/shared";
import {
  type BodyOf,
  type EndpointSpec,
  type FileAnswer,
  type ParamsOf,
  type QueryOf,
  type ResponseOf,
  routeKeyOf,
} from "@dorsal/shared/contract";
import middy from "@middy/core";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import type { Deps } from "../app/deps";
import { forbidden, invalid, notFound, unauthenticated } from "../app/errors";
import type { RequestClient } from "../app/throttle";
import { deviceTtlSeconds, type SessionClaims } from "../app/tokens";
import type { Logger } from "../logger";
import { errorResponse } from "./errors";
import { type MultipartForm, parseMultipart } from "./multipart";
import { assertThroughSite } from "./origin-verify";
import { isPrototypeKey } from "./prototype-keys";

/** The session of a signed-in caller; every route that is not public has one. */
type SessionFor<E> = E extends { access: "public" } ? SessionClaims | undefined : SessionClaims;

export interface RouteContext<E extends EndpointSpec = EndpointSpec> {
  deps: Deps;
  body: BodyOf<E>;
  query: QueryOf<E>;
  params: ParamsOf<E>;
  session: SessionFor<E>;
  form: E extends { multipart: true } ? MultipartForm : undefined;
  event: APIGatewayProxyEventV2;
  /** Who sent the request, for the throttle of secrets typed by hand. */
  client: RequestClient;
}

export interface Reply<Body = unknown> {
  status: number;
  body?: Body;
  headers?: Record<string, string>;
  cookies?: string[];
}

/** What a route does once its request is validated and its caller allowed: the contract's answer, or a reply carrying it. */
export type RouteImplementation<E extends EndpointSpec> = (
  context: RouteContext<E>,
) => Promise<ResponseOf<E> | Reply<ResponseOf<E>>>;

/** A group of endpoints, as one Lambda function serves them (a group of `api`). */
export type EndpointGroup = Record<string, EndpointSpec>;

/** A function's routes: one implementation for each endpoint of its group. */
export type RouteImplementations<Group extends EndpointGroup> = {
  [Name in keyof Group]: RouteImplementation<Group[Name]>;
};

/** A route once bound: its context is checked against the endpoint's schemas at run time. */
interface BoundRoute {
  endpoint: EndpointSpec;
  run: (
    context: Omit<RouteContext, "body" | "query" | "params" | "session" | "form"> & {
      body: unknown;
      query: unknown;
      params: unknown;
      session: SessionClaims | undefined;
      form: MultipartForm | undefined;
    },
  ) => Promise<unknown>;
}

/** What the local runtime needs to bind a function's routes to its own container. */
export interface RouteTable<Group extends EndpointGroup = EndpointGroup> {
  endpoints: Group;
  implementations: RouteImplementations<Group>;
}

export const reply = <Body>(
  status: number,
  body: Body,
  headers?: Record<string, string>,
  cookies?: string[],
): Reply<Body> => ({
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
    return JSON.parse(raw, refusingPrototypeKeys);
  } catch (error) {
    if (error instanceof SyntaxError) throw invalid("El cuerpo de la petición no es JSON válido");
    throw error;
  }
}

const refusingPrototypeKeys = (key: string, value: unknown) => {
  if (isPrototypeKey(key)) throw invalid(messages.prototypeKey);
  return value;
};

function bearerToken(event: APIGatewayProxyEventV2): string | undefined {
  const header = event.headers.authorization ?? event.headers.Authorization;
  const match = header ? /^Bearer\s+(.+)$/i.exec(header) : null;
  return match?.[1];
}

async function authorize(deps: Deps, spec: EndpointSpec, event: APIGatewayProxyEventV2) {
  const token = bearerToken(event);
  const session = token ? await deps.tokens.verify(token) : undefined;
  if (spec.access === "public") return session;
  if (!session) throw unauthenticated(messages.unauthorized);
  if (!spec.access.includes(session.role)) throw forbidden(messages.forbidden);
  return session;
}

const isReply = (value: unknown): value is Reply =>
  typeof value === "object" && value !== null && "status" in value && typeof value.status === "number";

const isFileAnswer = (value: unknown): value is FileAnswer =>
  typeof value === "object" && value !== null && "bytes" in value && value.bytes instanceof Uint8Array;

// The name goes into the header unquoted by anything else: a quote or a line break in it would
// forge another header or parameter, so a route that builds one wrongly fails instead.
const safeFilename = /^[A-Za-z0-9][A-Za-z0-9.-]*$/;

/**
 * A file as API Gateway's payload 2.0 carries binary bodies: base64 with `isBase64Encoded`, which
 * API Gateway decodes (and the local runtime's http-bridge too) before the browser sees it.
 */
function fileResponse(file: FileAnswer): APIGatewayProxyStructuredResultV2 {
  if (!safeFilename.test(file.filename)) throw new Error(`Unsafe download filename ${JSON.stringify(file.filename)}`);
  return {
    statusCode: 200,
    headers: {
      "content-type": file.contentType,
      "content-disposition": `attachment; filename="${file.filename}"`,
      "cache-control": "no-store",
    },
    body: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength).toString("base64"),
    isBase64Encoded: true,
  };
}

function bind({ endpoints, implementations }: RouteTable): Map<string, BoundRoute> {
  const runs = implementations as unknown as Record<string, BoundRoute["run"] | undefined>;
  return new Map(
    Object.entries(endpoints).map(([name, endpoint]): [string, BoundRoute] => {
      const run = runs[name];
      if (!run) throw new Error(`no implementation for ${name} (${routeKeyOf(endpoint)})`);
      return [routeKeyOf(endpoint), { endpoint, run }];
    }),
  );
}

/**
 * One Lambda handler for a resource's routes: middy runs the shared stack (error mapping), the
 * route's zod schemas validate everything that comes in, and access is checked before any use case
 * runs. The same function serves API Gateway and the local runtime.
 */
export function createHttpHandler<Group extends EndpointGroup>(
  endpoints: Group,
  implementations: NoInfer<RouteImplementations<Group>>,
  loadDeps: () => Promise<{ deps: Deps; logger: Logger }>,
) {
  const routes: RouteTable = { endpoints, implementations: implementations as RouteImplementations<EndpointGroup> };
  const bound = bind(routes);
  const base = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    const { deps } = await loadDeps();
    assertThroughSite(deps.config, event);
    const route = bound.get(event.routeKey);
    if (!route) throw notFound(messages.notFound);
    const { endpoint: spec } = route;
    const session = await authorize(deps, spec, event);
    const form = spec.multipart ? await parseMultipart(rawBody(event), event.headers["content-type"]) : undefined;
    const result = await route.run({
      deps,
      session,
      form,
      event,
      client: requestClient(event),
      body: spec.body ? spec.body.parse(parseJson(event)) : undefined,
      query: spec.query ? spec.query.parse(event.queryStringParameters ?? {}) : undefined,
      params: spec.params ? spec.params.parse(event.pathParameters ?? {}) : undefined,
    });
    if (isFileAnswer(result)) return fileResponse(result);
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
      const route = bound.get(event.routeKey);
      if (!route) throw notFound(messages.notFound);
      await authorize(loaded.deps, route.endpoint, event);
      return undefined;
    } catch (error) {
      return errorResponse(error, (message, cause) => loaded.logger.error(message, cause));
    }
  };
  // The route table travels with the handler so the access-matrix test checks every declared route.
  return Object.assign(handler, { routes, refusal });
}
