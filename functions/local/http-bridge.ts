import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import type { RouteTable } from "../src/http/handler";
import { httpRoutes, type RouteDefinition } from "../src/http/routes";

/** A Lambda HTTP handler of functions/src/handlers/http, as createHttpHandler makes it. */
export type LambdaHttpHandler = ((
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>) & {
  routes: RouteTable;
  refusal(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2 | undefined>;
};

/**
 * The largest JSON body the local API reads: the biggest the browser sends (200 files to sign) is
 * tens of KB. Form uploads take MAX_BODY_MB instead. (API Gateway takes 10 MB for any route.)
 */
export const jsonBodyMaxBytes = 1024 * 1024;

interface CompiledRoute extends RouteDefinition {
  pattern: RegExp;
  names: string[];
}

/** API Gateway prefers the most specific route: literal segments before `{params}`. */
const compiled: CompiledRoute[] = httpRoutes
  .map((route) => {
    const names: string[] = [];
    const pattern = route.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{(\w+)\\?\}/g, (_m, name: string) => {
      names.push(name);
      return "([^/]+)";
    });
    return { ...route, pattern: new RegExp(`^${pattern}$`), names };
  })
  .sort((a, b) => a.names.length - b.names.length);

/** A path whose `%` escapes are not UTF-8: API Gateway refuses it with a 400 before any route. */
export class MalformedPathError extends Error {
  override name = "MalformedPathError";
}

export function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    throw new MalformedPathError(`Malformed percent-encoding in ${JSON.stringify(path)}`);
  }
}

export function matchRoute(method: string, path: string) {
  for (const route of compiled) {
    if (route.method !== method) continue;
    const match = route.pattern.exec(path);
    if (!match) continue;
    const pathParameters = Object.fromEntries(route.names.map((name, i) => [name, decodePath(match[i + 1] ?? "")]));
    return { route, pathParameters };
  }
  return undefined;
}

/** The body, or undefined once it passes `maxBytes` (the rest is left to the caller's refusal). */
export async function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Past the limit the request stays open, so the client can still read the refusal.
  for await (const chunk of request.iterator({ destroyOnReturn: false })) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Builds the API Gateway HTTP API (payload 2.0) event that Lambda would receive for this request. */
export function toApiGatewayEvent(
  request: IncomingMessage,
  url: URL,
  body: Buffer,
  routeKey: string,
  pathParameters: Record<string, string>,
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    // Only CloudFront may say who the viewer is; here nothing stands in front to vouch for it.
    if (value === undefined || name.toLowerCase().startsWith("cloudfront-")) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(",") : value;
  }
  const queryStringParameters: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    queryStringParameters[name] = name in queryStringParameters ? `${queryStringParameters[name]},${value}` : value;
  }
  const now = new Date();
  return {
    version: "2.0",
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    ...(headers.cookie ? { cookies: headers.cookie.split(/;\s*/) } : {}),
    ...(url.search ? { queryStringParameters } : {}),
    ...(Object.keys(pathParameters).length ? { pathParameters } : {}),
    requestContext: {
      accountId: "local",
      apiId: "local",
      domainName: headers.host ?? "localhost",
      domainPrefix: "localhost",
      http: {
        method: request.method ?? "GET",
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress ?? "127.0.0.1",
        userAgent: headers["user-agent"] ?? "",
      },
      requestId: randomUUID(),
      routeKey,
      stage: "$default",
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: body.toString("base64"),
    isBase64Encoded: true,
  };
}

/**
 * The context Lambda passes. Its deadline is API Gateway's integration timeout: the handler's
 * middy stack answers 503 just before it, as API Gateway answers a timed-out integration.
 */
export function lambdaContext(functionName: string, timeoutMs: number): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: "$LATEST",
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: "1024",
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: "local",
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export function writeResult(response: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
  response.statusCode = result.statusCode ?? 200;
  for (const [name, value] of Object.entries(result.headers ?? {})) response.setHeader(name, String(value));
  if (result.cookies?.length) response.setHeader("set-cookie", result.cookies);
  const body = result.body ?? "";
  response.end(result.isBase64Encoded ? Buffer.from(body, "base64") : body);
}
