import { describe, expect, it } from "vitest";
import { perAddressLimits, routeThrottles } from "../src/http/abuse-limits";
import { createRateLimiter } from "./rate-limiter";

const events = "GET /api/events";
const login = "POST /api/auth/login";
const search = "GET /api/photos/search";

describe("local rate limiter", () => {
  it("lets an address make its minute's API requests, refuses the next until the minute ends, then starts again", () => {
    let now = 1_000_000;
    const limit = createRateLimiter(() => now);
    for (let i = 0; i < perAddressLimits.apiPerAddress; i++) {
      expect(limit("10.0.0.7", events, "/api/events")).toBeUndefined();
    }
    now += 15_000;
    expect(limit("10.0.0.7", events, "/api/events")).toEqual({ retryAfterSeconds: 45 });
    // Another address has its own count.
    expect(limit("10.0.0.8", events, "/api/events")).toBeUndefined();
    now += 45_000;
    expect(limit("10.0.0.7", events, "/api/events")).toBeUndefined();
  });

  it("never counts a photographer's uploads against the address", () => {
    const limit = createRateLimiter(() => 0);
    for (let i = 0; i < 2 * perAddressLimits.apiPerAddress; i++) {
      expect(limit("10.0.0.9", "POST /api/photos/uploads/sign", "/api/photos/uploads/sign")).toBeUndefined();
    }
    expect(limit("10.0.0.9", events, "/api/events")).toBeUndefined();
  });

  it("counts an address's sign-in and code attempts apart, far below its other requests", () => {
    let now = 0;
    const limit = createRateLimiter(() => now);
    // Slow enough that the route's own bucket never runs dry.
    for (let i = 0; i < perAddressLimits.secretsPerAddress; i++) {
      now += 500;
      expect(limit("10.0.0.7", login, "/api/auth/login")).toBeUndefined();
    }
    expect(limit("10.0.0.7", login, "/api/auth/login")).toMatchObject({ retryAfterSeconds: expect.any(Number) });
    expect(limit("10.0.0.7", "POST /api/download-codes/validate", "/api/download-codes/validate")).toBeDefined();
    expect(limit("10.0.0.7", events, "/api/events")).toBeUndefined();
  });

  it("shares a throttled route's burst among every address, refilled at its rate", () => {
    let now = 0;
    const limit = createRateLimiter(() => now);
    const { rate, burst } = routeThrottles[search] as { rate: number; burst: number };
    for (let i = 0; i < burst; i++) expect(limit(`10.0.1.${i}`, search, "/api/photos/search")).toBeUndefined();
    expect(limit("10.0.2.1", search, "/api/photos/search")).toEqual({ retryAfterSeconds: 1 });
    // Another route is not held back by this one.
    expect(limit("10.0.2.1", events, "/api/events")).toBeUndefined();
    now += 1000;
    for (let i = 0; i < rate; i++) expect(limit(`10.0.3.${i}`, search, "/api/photos/search")).toBeUndefined();
    expect(limit("10.0.2.1", search, "/api/photos/search")).toBeDefined();
  });
});
