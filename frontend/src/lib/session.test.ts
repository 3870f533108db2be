import { afterEach, describe, expect, it, vi } from "vitest";
import { SESSION_KEY, session, toSessionUser } from "./session";

const user = {
  id: "u1",
  email: "admin@dorsal.test",
  name: "Admin",
  role: "admin",
  assignedEventId: null,
  createdAt: "2025-01-01T00:00:00.000Z",
  lastLogin: null,
  emailVerifiedAt: null,
};

describe("toSessionUser", () => {
  it("accepts a stored user with its token", () => {
    expect(toSessionUser({ ...user, token: "jwt" })).toEqual({ ...user, token: "jwt" });
  });

  it("rejects a user without a token, an unknown role or garbage", () => {
    expect(toSessionUser(user)).toBeNull();
    expect(toSessionUser({ ...user, token: "" })).toBeNull();
    expect(toSessionUser({ ...user, role: "superadmin", token: "jwt" })).toBeNull();
    expect(toSessionUser("admin")).toBeNull();
    expect(toSessionUser(null)).toBeNull();
  });
});

describe("session expiry", () => {
  afterEach(() => {
    session.clear();
    vi.unstubAllGlobals();
  });

  it("sends a session the server refused back to its own login, until a new sign-in or a logout", () => {
    const stored = new Map<string, string>();
    vi.stubGlobal("localStorage", {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => stored.set(key, value),
      removeItem: (key: string) => stored.delete(key),
    });
    const seen: (string | null)[] = [];
    const unsubscribe = session.subscribe(() => seen.push(session.expiredLoginPath()));

    session.save({ ...user, role: "admin", token: "jwt" });
    session.expire();
    expect(session.get()).toBeNull();
    expect(stored.has(SESSION_KEY)).toBe(false);
    // Listeners (the router) already see where to go when they are told the session ended.
    expect(seen).toEqual([null, "/admin-login"]);

    session.save({ ...user, role: "photographer", token: "jwt-2" });
    expect(session.expiredLoginPath()).toBeNull();
    session.expire();
    expect(session.expiredLoginPath()).toBe("/photographer-login");
    session.clear();
    expect(session.expiredLoginPath()).toBeNull();
    unsubscribe();
  });
});
