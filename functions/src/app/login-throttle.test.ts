import { describe, expect, it } from "vitest";
import { attemptWindow, attemptWindowExpiry, lockEnd, loginThrottle, minutesLeft, slowdownMs } from "./login-throttle";

const at = (iso: string) => new Date(iso);

describe("login throttle policy", () => {
  it("counts in windows of half the failure period, so two windows never reach further back than it", () => {
    const start = attemptWindow(at("2026-11-23T10:00:00Z"));
    expect(attemptWindow(at("2026-11-23T10:07:29.999Z"))).toBe(start);
    expect(attemptWindow(at("2026-11-23T10:07:30Z"))).toBe(start + 1);
    // A window's count matters while it is the current or the previous one.
    expect(attemptWindowExpiry(start)).toEqual(at("2026-11-23T10:15:00Z"));
  });

  it("locks for at least the failure period, so the failures behind a lock are forgotten when it ends", () => {
    expect(loginThrottle.lockMinutes).toBeGreaterThanOrEqual(loginThrottle.failurePeriodMinutes);
    const now = at("2026-11-23T10:03:00Z");
    const end = lockEnd(now);
    expect(end).toEqual(at("2026-11-23T10:18:00Z"));
    expect(attemptWindow(end) - 1).toBeGreaterThan(attemptWindow(now));
  });

  it("reports whole minutes left, rounding up and never 0 while locked", () => {
    const until = at("2026-11-23T10:15:00Z");
    expect(minutesLeft(until, at("2026-11-23T10:00:00Z"))).toBe(15);
    expect(minutesLeft(until, at("2026-11-23T10:00:01Z"))).toBe(15);
    expect(minutesLeft(until, at("2026-11-23T10:14:01Z"))).toBe(1);
    expect(minutesLeft(until, at("2026-11-23T10:14:59.900Z"))).toBe(1);
  });

  it("leaves the first mistakes alone, then doubles the wait up to the cap", () => {
    expect([0, 1, 2].map(slowdownMs)).toEqual([0, 0, 0]);
    expect([3, 4, 5, 9].map(slowdownMs)).toEqual([500, 1000, 2000, 2000]);
  });
});
