import { type EndpointSpec, type HttpMethod, messages, pathFor, type RequestOf, type ResponseOf } from "@dorsal/shared";
import { session } from "./session";

/** A response the server answered with a non-OK status; `message` is what the user should read. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    message: string,
    readonly status: number,
    readonly details?: { path: string; message: string }[],
  ) {
    super(message);
  }
}

const connectionFailedMessage = "No se pudo conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.";

/**
 * The request never got an HTTP answer (offline, DNS, server down). Its message is what the user
 * reads (screens show it in their error state); the browser's own words ('Failed to fetch') are
 * English, so they stay in `cause`.
 */
export class NetworkError extends Error {
  override readonly name = "NetworkError";
  constructor(cause: unknown) {
    super(connectionFailedMessage, { cause });
  }
}

export const invalidResponseMessage = "Respuesta del servidor inválida";

/**
 * The server's `{ success: false, error }` text when there is one; otherwise spec §8's generic
 * form: status, colon, space, then the body (or the status text when the body is empty).
 */
export function errorMessageFor(status: number, statusText: string, body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === "object" && "error" in parsed && typeof parsed.error === "string" && parsed.error) {
      return parsed.error;
    }
  } catch {
    // Not JSON: fall through to the generic form.
  }
  // API Gateway's own throttle answers in English, without our `error`.
  if (status === 429) return messages.tooManyRequests;
  return `${status}: ${body || statusText}`;
}

function detailsOf(body: string): ApiError["details"] {
  try {
    const parsed = JSON.parse(body) as { details?: unknown };
    return Array.isArray(parsed.details) ? (parsed.details as ApiError["details"]) : undefined;
  } catch {
    return undefined;
  }
}

interface CallOptions {
  signal?: AbortSignal;
  /** Login must not carry (or be able to revoke) the session it is about to replace. */
  anonymous?: boolean;
}

/**
 * What every call sends. The bearer token goes on every call while signed in: public endpoints
 * ignore it and it keeps the client free of a list of protected paths that would drift from the
 * server's. Answers the response once it is OK; a failure becomes an ApiError or a NetworkError.
 */
export async function send(
  path: string,
  {
    method,
    body,
    signal,
    anonymous = false,
    accept,
  }: CallOptions & { method: HttpMethod; body: unknown; accept: string },
): Promise<Response> {
  const token = anonymous ? undefined : session.get()?.token;
  const headers: Record<string, string> = { Accept: accept };
  // Spec §7: FormData bodies are sent as is (the browser writes their boundary); others as JSON.
  const form = body instanceof FormData;
  if (body !== undefined && !form) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: form ? body : body === undefined ? undefined : JSON.stringify(body),
      signal,
      credentials: "same-origin",
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new NetworkError(error);
  }

  if (!response.ok) {
    const text = await response.text();
    // The token expired or was revoked: keeping it would make every screen fail the same way. A
    // session replaced meanwhile (a password change issues a new token) is not this one to end.
    if (response.status === 401 && token && session.get()?.token === token) session.expire();
    throw new ApiError(errorMessageFor(response.status, response.statusText, text), response.status, detailsOf(text));
  }
  return response;
}

async function apiFetch<T>(path: string, options: CallOptions & { method: HttpMethod; body: unknown }): Promise<T> {
  const response = await send(path, { ...options, accept: "application/json" });
  const text = await response.text();
  if (!text) return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError(invalidResponseMessage, response.status);
  }
}

/** The request is optional where the endpoint has no path parameters and no body. */
export type CallArguments<E> =
  object extends RequestOf<E> ? [request?: RequestOf<E> & CallOptions] : [request: RequestOf<E> & CallOptions];

/** `?name=value&…` of the query's defined values; "" when there are none. */
function queryString(query: object | undefined): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

/** The endpoint's path with its parameters, its query, and how to send them. */
export function requestFor(endpoint: EndpointSpec, request: object | undefined) {
  const { params, query, body, signal, anonymous } = (request ?? {}) as {
    params?: Record<string, string | number>;
    query?: object;
    body?: unknown;
  } & CallOptions;
  return {
    path: pathFor(endpoint, params) + queryString(query),
    options: { method: endpoint.method, body, signal, anonymous },
  };
}

/**
 * The one way the browser calls the API, through its contract (shared/src/contract): the path, method, body and answer's type all
 * come from the endpoint the server serves, e.g. `apiCall(usersApi.update, { params: { id }, body })`, `usersApi` imported
 * from "@dorsal/shared/contract/users": a screen imports only its groups, never the whole `api`.
 */
export function apiCall<E extends EndpointSpec>(endpoint: E, ...[request]: CallArguments<E>): Promise<ResponseOf<E>> {
  const { path, options } = requestFor(endpoint, request);
  return apiFetch<ResponseOf<E>>(path, options);
}
