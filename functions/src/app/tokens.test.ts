import { exportJWK, generateKeyPair, importJWK, SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createTokenService,
  type PrivateJwk,
  publicJwkOf,
  type SessionState,
  sessionStateTtlMs,
  type TokenService,
} from "./tokens";

describe("token service", () => {
  let jwk: PrivateJwk;
  let now = new Date("2026-11-22T10:00:00Z");
  const clock = { now: () => now };
  let tokens: TokenService;
  const accounts = new Map<string, SessionState>([["u1", { role: "admin", passwordVersion: 0 }]]);

  beforeAll(async () => {
    const { privateKey } = await generateKeyPair("RS256", { extractable: true });
    jwk = { ...(await exportJWK(privateKey)), kid: "k1", alg: "RS256" };
    tokens = createTokenService({
      publicJwk: async () => publicJwkOf(jwk),
      privateJwk: async () => jwk,
      issuer: "dorsal",
      ttlSeconds: 3600,
      clock,
      sessionState: async (userId) => accounts.get(userId),
    });
  });

  it("issues tokens it verifies back to the same claims", async () => {
    now = new Date();
    const token = await tokens.issue({ userId: "u1", email: "a@b.co", role: "admin", passwordVersion: 0 });
    expect(await tokens.verify(token)).toEqual({ userId: "u1", email: "a@b.co", role: "admin" });
  });

  it("verifies with the public key alone, and a process without the private key issues nothing", async () => {
    now = new Date();
    const verifyOnly = createTokenService({
      publicJwk: async () => publicJwkOf(jwk),
      issuer: "dorsal",
      ttlSeconds: 3600,
      clock,
      sessionState: async (userId) => accounts.get(userId),
    });
    const token = await tokens.issue({ userId: "u1", email: "a@b.co", role: "admin", passwordVersion: 0 });
    expect(await verifyOnly.verify(token)).toEqual({ userId: "u1", email: "a@b.co", role: "admin" });
    const device = await tokens.issueDevice("a@b.co");
    expect(await verifyOnly.deviceOf(device, "a@b.co")).toEqual(expect.any(String));
    await expect(
      verifyOnly.issue({ userId: "u1", email: "a@b.co", role: "admin", passwordVersion: 0 }),
    ).rejects.toThrow(/no JWT signing key/);
    await expect(verifyOnly.issueDevice("a@b.co")).rejects.toThrow(/no JWT signing key/);
    expect(Object.keys(publicJwkOf(jwk)).sort()).toEqual(["e", "kid", "kty", "n"]);
  });

  it("rejects expired, tampered and foreign tokens", async () => {
    now = new Date(Date.now() - 2 * 3600 * 1000);
    const expired = await tokens.issue({ userId: "u1", email: "a@b.co", role: "admin", passwordVersion: 0 });
    now = new Date();
    expect(await tokens.verify(expired)).toBeUndefined();

    const token = await tokens.issue({ userId: "u1", email: "a@b.co", role: "photographer", passwordVersion: 0 });
    const [header, , signature] = token.split(".");
    const forgedPayload = Buffer.from(
      JSON.stringify({ sub: "u1", email: "a@b.co", role: "admin", iss: "dorsal", aud: "dorsal", exp: 9e9 }),
    ).toString("base64url");
    expect(await tokens.verify(`${header}.${forgedPayload}.${signature}`)).toBeUndefined();

    const { privateKey: otherKey } = await generateKeyPair("RS256");
    const foreign = await new SignJWT({ email: "a@b.co", role: "admin" })
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .setSubject("u1")
      .setIssuer("dorsal")
      .setAudience("dorsal")
      .setExpirationTime("1h")
      .sign(otherKey);
    expect(await tokens.verify(foreign)).toBeUndefined();
    expect(await tokens.verify("not-a-jwt")).toBeUndefined();
  });

  it("refuses a token signed with our key for another audience, issuer or key id, or without an expiry, and any other algorithm", async () => {
    now = new Date();
    const privateKey = await importJWK(jwk, "RS256");
    const claims = { email: "a@b.co", role: "admin", pwv: 0 };
    const ours = (
      edit: (jwt: SignJWT) => SignJWT,
      header: { alg: string; kid?: string } = { alg: "RS256", kid: "k1" },
    ) => edit(new SignJWT(claims).setProtectedHeader(header).setSubject("u1")).sign(privateKey);
    const valid = await ours((jwt) => jwt.setIssuer("dorsal").setAudience("dorsal").setExpirationTime("1h"));
    expect(await tokens.verify(valid)).toEqual({ userId: "u1", email: "a@b.co", role: "admin" });

    const refused = [
      await ours((jwt) => jwt.setIssuer("dorsal").setAudience("dorsal#dispositivo").setExpirationTime("1h")),
      await ours((jwt) => jwt.setIssuer("otro").setAudience("dorsal").setExpirationTime("1h")),
      await ours((jwt) => jwt.setIssuer("dorsal").setAudience("dorsal")),
      await ours((jwt) => jwt.setIssuer("dorsal").setAudience("dorsal").setExpirationTime("1h"), {
        alg: "RS256",
        kid: "k2",
      }),
      await new SignJWT(claims)
        .setProtectedHeader({ alg: "HS256", kid: "k1" })
        .setSubject("u1")
        .setIssuer("dorsal")
        .setAudience("dorsal")
        .setExpirationTime("1h")
        .sign(new TextEncoder().encode(JSON.stringify({ n: jwk.n, e: jwk.e }))),
    ];
    for (const token of refused) expect(await tokens.verify(token)).toBeUndefined();

    // A device token is no session, and a session is no device token.
    const device = await tokens.issueDevice("a@b.co");
    expect(await tokens.verify(device)).toBeUndefined();
    expect(await tokens.deviceOf(device, "a@b.co")).toEqual(expect.any(String));
    expect(await tokens.deviceOf(device, "otra@b.co")).toBeUndefined();
    expect(await tokens.deviceOf(valid, "a@b.co")).toBeUndefined();
  });

  it("stops verifying a token once the account's password changed, and accepts the next one", async () => {
    now = new Date();
    accounts.set("u2", { role: "admin", passwordVersion: 0 });
    const before = await tokens.issue({ userId: "u2", email: "c@d.co", role: "admin", passwordVersion: 0 });
    expect(await tokens.verify(before)).toEqual({ userId: "u2", email: "c@d.co", role: "admin" });
    accounts.set("u2", { role: "admin", passwordVersion: 1 });
    tokens.forget("u2");
    expect(await tokens.verify(before)).toBeUndefined();
    const after = await tokens.issue({ userId: "u2", email: "c@d.co", role: "admin", passwordVersion: 1 });
    expect(await tokens.verify(after)).toEqual({ userId: "u2", email: "c@d.co", role: "admin" });
  });

  it("stops verifying a token once the account's role changed or the account is gone", async () => {
    now = new Date();
    accounts.set("u3", { role: "admin", passwordVersion: 0 });
    accounts.set("u4", { role: "athlete", passwordVersion: 0 });
    const demoted = await tokens.issue({ userId: "u3", email: "e@f.co", role: "admin", passwordVersion: 0 });
    const deleted = await tokens.issue({ userId: "u4", email: "g@h.co", role: "athlete", passwordVersion: 0 });
    expect(await tokens.verify(demoted)).toBeDefined();
    expect(await tokens.verify(deleted)).toBeDefined();
    accounts.set("u3", { role: "photographer", passwordVersion: 0 });
    accounts.delete("u4");
    tokens.forget("u3");
    tokens.forget("u4");
    expect(await tokens.verify(demoted)).toBeUndefined();
    expect(await tokens.verify(deleted)).toBeUndefined();
  });

  it("learns of a change made by another process within the cache's lifetime", async () => {
    now = new Date();
    accounts.set("u5", { role: "admin", passwordVersion: 0 });
    const token = await tokens.issue({ userId: "u5", email: "i@j.co", role: "admin", passwordVersion: 0 });
    expect(await tokens.verify(token)).toBeDefined();
    accounts.set("u5", { role: "athlete", passwordVersion: 0 });
    // Unknown to this process (no forget): trusted for a moment, never longer than the lifetime.
    now = new Date(now.getTime() + sessionStateTtlMs);
    expect(await tokens.verify(token)).toBeUndefined();
  });
});
