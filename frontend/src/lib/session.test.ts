import { describe, expect, it } from "vitest";
import { toSessionUser } from "./session";

const user = {
  id: "u1",
  email: "admin@dorsal.test",
  name: "Admin",
  role: "admin",
  assignedEventId: null,
  createdAt: "2025-01-01T00:00:00.000Z",
  lastLogin: null,
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
