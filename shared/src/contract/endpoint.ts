import type { ZodType, z } from "zod";
import type { Role } from "../roles";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/** "public", or the roles allowed; the server enforces it on every request. */
export type Access = "public" | readonly Role[];

/**
 * One HTTP route as both sides see it: the server validates with these schemas and checks
 * `access` before any use case runs; the browser builds the path and types the body and the
 * answer from the same object, so neither can drift from the other.
 */
export interface EndpointSpec {
  method: HttpMethod;
  /** API Gateway syntax: `{name}` path parameters, each one a key of `params`. */
  path: string;
  access: Access;
  params?: ZodType;
  query?: ZodType;
  body?: ZodType;
  /** A multipart/form-data body (`FormData` in the browser), parsed by the server. */
  multipart?: true;
}

/** The answer's type rides along as a phantom property: it exists only for the compiler. */
export type Endpoint<Spec extends EndpointSpec = EndpointSpec, Response = unknown> = Spec & {
  readonly "~response"?: Response;
};

/**
 * `endpoint<Answer>()({ method, path, access, … })`: curried so the answer's type is given by
 * hand while the spec's own literal types (access roles, schemas) are inferred.
 */
export const endpoint =
  <Response>() =>
  <const Spec extends EndpointSpec>(spec: Spec): Endpoint<Spec, Response> =>
    spec;

/**
 * The answer of a route that sends a file instead of JSON (the analytics PDF): the server sends
 * the bytes with their type as an attachment under `filename`; the browser saves them
 * (`apiDownload` in frontend/src/lib/api-fetch.ts).
 */
export interface FileAnswer {
  contentType: string;
  /** ASCII letters, digits, dots and hyphens only: it goes into a header as it is. */
  filename: string;
  bytes: Uint8Array;
}

/** What a successful call answers (the JSON body, or a `FileAnswer`). */
export type ResponseOf<E> = E extends { readonly "~response"?: infer Response } ? Response : never;

type Input<E, Key extends "params" | "query" | "body"> = E extends { [K in Key]: infer Schema extends ZodType }
  ? z.input<Schema>
  : undefined;
type Output<E, Key extends "params" | "query" | "body"> = E extends { [K in Key]: infer Schema extends ZodType }
  ? z.output<Schema>
  : undefined;

/** What the server's handler receives once the request is validated. */
export type ParamsOf<E> = Output<E, "params">;
export type QueryOf<E> = Output<E, "query">;
export type BodyOf<E> = Output<E, "body">;

/** What the browser sends: path parameters, query and body, each present only when the route has it. */
export type RequestOf<E> = (E extends { params: ZodType } ? { params: Input<E, "params"> } : { params?: undefined }) &
  (E extends { query: ZodType } ? { query?: Input<E, "query"> } : { query?: undefined }) &
  (E extends { body: ZodType }
    ? { body: Input<E, "body"> }
    : E extends { multipart: true }
      ? { body: FormData }
      : { body?: undefined });

/** The path with its `{name}` parameters filled in, each one URL-encoded. */
export function pathFor(endpoint: EndpointSpec, params?: Record<string, string | number>): string {
  return endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${endpoint.path}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

/** API Gateway's route key, `METHOD /path/{param}`. */
export const routeKeyOf = (endpoint: EndpointSpec) => `${endpoint.method} ${endpoint.path}` as const;
