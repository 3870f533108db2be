import { messages } from "@dorsal/shared";
import { browseApi } from "@dorsal/shared/contract/browse";
import { salesApi } from "@dorsal/shared/contract/sales";
import { usersApi } from "@dorsal/shared/contract/users";
import { afterEach, describe, expect, it, vi } from "vitest";
import { apiCall, errorMessageFor } from "./api-fetch";

describe("errorMessageFor", () => {
  it("shows the server's Spanish message when it sends one", () => {
    expect(
      errorMessageFor(401, "Unauthorized", JSON.stringify({ success: false, error: "Credenciales inválidas" })),
    ).toBe("Credenciales inválidas");
  });

  it("falls back to status and body (spec §8)", () => {
    expect(errorMessageFor(502, "Bad Gateway", "upstream down")).toBe("502: upstream down");
    expect(errorMessageFor(500, "Internal Server Error", JSON.stringify({ message: "x" }))).toBe(
      '500: {"message":"x"}',
    );
  });

  it("says in Spanish that the API is busy when a throttle answers in its own words", () => {
    expect(errorMessageFor(429, "Too Many Requests", JSON.stringify({ message: "Too Many Requests" }))).toBe(
      messages.tooManyRequests,
    );
  });

  it("uses the status text when the body is empty", () => {
    expect(errorMessageFor(503, "Service Unavailable", "")).toBe("503: Service Unavailable");
  });
});

describe("apiCall", () => {
  afterEach(() => vi.unstubAllGlobals());

  function recordFetches(answer: unknown) {
    const calls: { url: string; init: RequestInit }[] = [];
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify(answer), { status: 200 });
    });
    return calls;
  }

  it("takes the method and path from the contract, fills the parameters and keeps only the query's set values", async () => {
    const calls = recordFetches({ photos: [], nextCursor: null });
    await apiCall(browseApi.photos, { params: { id: 7, dorsal: "A 12" }, query: { cursor: 24, limit: undefined } });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe("/api/events/7/photos/A%2012/all?cursor=24");
    expect(calls[0]?.init.method).toBe("GET");
    expect(calls[0]?.init.body).toBeUndefined();
  });

  it("sends a body as JSON and answers the server's JSON", async () => {
    const calls = recordFetches({ success: true });
    const answer = await apiCall(usersApi.remove, { params: { id: "user-123" } });
    expect(answer).toEqual({ success: true });
    expect(calls[0]).toMatchObject({ url: "/api/users/user-123", init: { method: "DELETE" } });

    await apiCall(salesApi.quote, { body: { eventId: 3, photoIds: ["p1"] } });
    expect(calls[1]?.init.method).toBe("POST");
    expect(JSON.parse(String(calls[1]?.init.body))).toEqual({ eventId: 3, photoIds: ["p1"] });
    expect(new Headers(calls[1]?.init.headers).get("content-type")).toBe("application/json");
  });
});
