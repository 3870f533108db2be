import { endpoint, type FileAnswer } from "@dorsal/shared/contract";
import type { APIGatewayProxyEventV2, Context } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Deps } from "../app/deps";
import { conflict } from "../app/errors";
import type { SessionClaims } from "../app/tokens";
import { createLogger } from "../logger";
import { createHttpHandler, deviceCookieName, reply, requestClient } from "./handler";

const sessions: Record<string, SessionClaims> = {
  "admin-token": { userId: "a", email: "admin@x.co", role: "admin" },
  "photographer-token": { userId: "p", email: "foto@x.co", role: "photographer" },
};
// Only the token check is needed by the dispatcher; everything else stays out of reach on purpose.
const deps = {
  config: { DORSAL_RUNTIME: "local" },
  tokens: { verify: async (token: string) => sessions[token], issue: async () => "" },
} as unknown as Deps;
const errors: unknown[] = [];
const logger = { ...createLogger("silent"), error: (_m: string, e: unknown) => errors.push(e) };

const testApi = {
  create: endpoint<{ created: string }>()({
    method: "POST",
    path: "/api/events",
    access: ["admin"],
    body: z.object({ name: z.string().min(1, "Nombre requerido") }),
  }),
  get: endpoint<{ id: number }>()({
    method: "GET",
    path: "/api/events/{id}",
    access: "public",
    params: z.object({ id: z.coerce.number().int() }),
  }),
  report: endpoint<FileAnswer>()({
    method: "GET",
    path: "/api/report",
    access: ["admin"],
    query: z.object({ name: z.string() }),
  }),
};

const handler = createHttpHandler(
  testApi,
  {
    create: async ({ body }) => reply(201, { created: body.name }),
    get: async ({ params }) => {
      if (params.id === 409) throw conflict("Ya existe");
      if (params.id === 500) throw new Error("database password is hunter2");
      if (params.id === 503) await new Promise(() => undefined);
      return { id: params.id };
    },
    report: async ({ query }) => ({
      contentType: "application/pdf",
      filename: query.name,
      bytes: new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x00, 0xff]),
    }),
  },
  async () => ({ deps, logger }),
);

const call = (routeKey: string, init: Partial<APIGatewayProxyEventV2> = {}) =>
  handler(
    {
      routeKey,
      headers: {},
      isBase64Encoded: false,
      requestContext: { http: { sourceIp: "203.0.113.9" } },
      ...init,
    } as APIGatewayProxyEventV2,
    {} as Context,
  ) as Promise<{ statusCode: number; body: string; headers: Record<string, string>; isBase64Encoded?: boolean }>;

describe("createHttpHandler", () => {
  it("refuses a protected route without a token (401) and with the wrong role (403)", async () => {
    expect((await call("POST /api/events", { body: '{"name":"x"}' })).statusCode).toBe(401);
    const wrongRole = await call("POST /api/events", {
      body: '{"name":"x"}',
      headers: { authorization: "Bearer photographer-token" },
    });
    expect(wrongRole.statusCode).toBe(403);
    const forged = await call("POST /api/events", { body: "{}", headers: { authorization: "Bearer made-up" } });
    expect(forged.statusCode).toBe(401);
  });

  it("validates the body with the route's schema and answers 400 with the message", async () => {
    const response = await call("POST /api/events", {
      body: '{"name":""}',
      headers: { authorization: "Bearer admin-token" },
    });
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({ success: false, error: "Nombre requerido" });
    const broken = await call("POST /api/events", { body: "{nope", headers: { authorization: "Bearer admin-token" } });
    expect(broken.statusCode).toBe(400);
  });

  it("refuses a body with a prototype's key at any depth (400), before the route runs", async () => {
    const admin = { authorization: "Bearer admin-token" };
    for (const body of [
      '{"name":"x","__proto__":{"role":"admin"}}',
      '{"name":"x","tags":[{"constructor":{"prototype":{"role":"admin"}}}]}',
      '{"prototype":1}',
    ]) {
      const response = await call("POST /api/events", { body, headers: admin });
      expect({ body, status: response.statusCode, answer: JSON.parse(response.body) }).toEqual({
        body,
        status: 400,
        answer: { success: false, error: "La petición contiene un campo no permitido" },
      });
    }
    // The same words as values, or inside other keys, are data like any other.
    const plain = await call("POST /api/events", { body: '{"name":"__proto__ constructor"}', headers: admin });
    expect(plain.statusCode).toBe(201);
  });

  it("runs the route and honours its status", async () => {
    const response = await call("POST /api/events", {
      body: Buffer.from('{"name":"Maratón"}').toString("base64"),
      isBase64Encoded: true,
      headers: { authorization: "Bearer admin-token" },
    });
    expect(response.statusCode).toBe(201);
    expect(JSON.parse(response.body)).toEqual({ created: "Maratón" });
  });

  it("maps typed errors to their status and hides unexpected ones behind a 500", async () => {
    expect((await call("GET /api/events/{id}", { pathParameters: { id: "409" } })).statusCode).toBe(409);
    const crash = await call("GET /api/events/{id}", { pathParameters: { id: "500" } });
    expect(crash.statusCode).toBe(500);
    expect(crash.body).not.toContain("hunter2");
    expect(errors).toHaveLength(1);
    expect((await call("GET /api/events/{id}", { pathParameters: { id: "abc" } })).statusCode).toBe(400);
    expect((await call("DELETE /api/nothing")).statusCode).toBe(404);
  });

  it("sends a file's bytes as base64, typed, as an attachment under its name, and no name that could forge a header", async () => {
    const admin = { authorization: "Bearer admin-token" };
    const file = await call("GET /api/report", { headers: admin, queryStringParameters: { name: "informe-1.pdf" } });
    expect(file.statusCode).toBe(200);
    expect(file.isBase64Encoded).toBe(true);
    expect([...Buffer.from(file.body, "base64")]).toEqual([0x25, 0x50, 0x44, 0x46, 0x00, 0xff]);
    expect(file.headers).toMatchObject({
      "content-type": "application/pdf",
      "content-disposition": 'attachment; filename="informe-1.pdf"',
      "cache-control": "no-store",
    });
    const forged = await call("GET /api/report", { headers: admin, queryStringParameters: { name: 'a.pdf"\r\nx: y' } });
    expect(forged.statusCode).toBe(500);
  });

  it("answers 503 in Spanish, as API Gateway would, when the function runs out of time", async () => {
    const almostOutOfTime = { getRemainingTimeInMillis: () => 50 } as unknown as Context;
    const response = (await handler(
      {
        routeKey: "GET /api/events/{id}",
        headers: {},
        requestContext: { http: { sourceIp: "203.0.113.9" } },
        pathParameters: { id: "503" },
      } as unknown as APIGatewayProxyEventV2,
      almostOutOfTime,
    )) as { statusCode: number; body: string };
    expect(response.statusCode).toBe(503);
    expect(JSON.parse(response.body)).toEqual({
      success: false,
      error: "El servidor tardó demasiado en responder. Vuelve a intentarlo en unos momentos.",
    });
  });
});

describe("requestClient", () => {
  const event = (headers: Record<string, string>, cookies?: string[]) =>
    ({ headers, cookies, requestContext: { http: { sourceIp: "130.176.1.1" } } }) as unknown as APIGatewayProxyEventV2;

  it("takes the viewer's address from CloudFront, IPv4 or IPv6, and the connection's otherwise", () => {
    expect(requestClient(event({ "cloudfront-viewer-address": "198.51.100.10:46532" })).ip).toBe("198.51.100.10");
    expect(requestClient(event({ "cloudfront-viewer-address": "2001:db8::8a2e:370:7334:443" })).ip).toBe(
      "2001:db8::8a2e:370:7334",
    );
    expect(requestClient(event({})).ip).toBe("130.176.1.1");
  });

  it("reads the device cookie among others", () => {
    expect(requestClient(event({}, ["otra=1", `${deviceCookieName}=abc.def.ghi`])).deviceToken).toBe("abc.def.ghi");
    expect(requestClient(event({}, ["otra=1"])).deviceToken).toBeUndefined();
  });
});
