import { api, type EndpointSpec, type HttpResource } from "@dorsal/shared/contract";

/**
 * Every HTTP route, in one table built from the API contract (shared/src/contract): CDK creates
 * the API Gateway routes from it and the local server matches requests against it, so both
 * runtimes expose exactly the same API. `handler` names the file in handlers/http/ (one Lambda
 * function per group of the contract).
 */
export const httpHandlers = Object.keys(api) as HttpResource[];
export type HttpHandlerName = HttpResource;

export interface RouteDefinition {
  method: EndpointSpec["method"];
  /** API Gateway syntax: `{name}` path parameters. */
  path: string;
  handler: HttpHandlerName;
  /** A multipart/form-data body: the local server admits it up to MAX_BODY_MB, not 1 MB. */
  multipart: boolean;
}

export const httpRoutes: RouteDefinition[] = httpHandlers.flatMap((handler) =>
  Object.values(api[handler] as Record<string, EndpointSpec>).map(({ method, path, multipart }) => ({
    method,
    path,
    handler,
    multipart: multipart === true,
  })),
);
