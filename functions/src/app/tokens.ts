import { type Role, roles } from "@dorsal/shared";
import { JwtVerifier } from "aws-jwt-verify";
import type { JwksCache } from "aws-jwt-verify/jwk";
import { importJWK, type JWK, SignJWT } from "jose";
import type { Clock } from "../ports/clock";

export interface SessionClaims {
  userId: string;
  email: string;
  role: Role;
}

export interface TokenService {
  /** `passwordVersion` is the account's at issue time (data/credentials.ts). */
  issue(claims: SessionClaims & { passwordVersion: number }): Promise<string>;
  /**
   * Returns the claims of a valid, unexpired token signed by us, or undefined — also when the
   * account's password changed after the token was issued.
   */
  verify(token: string): Promise<SessionClaims | undefined>;
}

export type PrivateJwk = JWK & { kid: string; alg: "RS256" };

/**
 * Session tokens: signed with jose, verified with aws-jwt-verify against our own public key. The
 * JWKS is held in memory, so verification never goes to the network.
 */
export function createTokenService(options: {
  /** Read on first use, so functions that never sign or check a session never fetch the key. */
  privateJwk: () => Promise<PrivateJwk>;
  issuer: string;
  ttlSeconds: number;
  clock: Clock;
  /**
   * The account's current password version, or undefined when the account is gone. A missing
   * account is left to the use cases (they answer 403/404 as the route requires); only a changed
   * password revokes here.
   */
  passwordVersion: (userId: string) => Promise<number | undefined>;
}): TokenService {
  const { issuer, ttlSeconds, clock } = options;
  let keys: Promise<Awaited<ReturnType<typeof loadKeys>>> | undefined;
  const loaded = () => {
    keys ??= loadKeys(options.privateJwk, issuer).catch((error: unknown) => {
      keys = undefined;
      throw error;
    });
    return keys;
  };

  return {
    async issue(claims) {
      const { signingKey, kid } = await loaded();
      const now = Math.floor(clock.now().getTime() / 1000);
      return new SignJWT({ email: claims.email, role: claims.role, pwv: claims.passwordVersion })
        .setProtectedHeader({ alg: "RS256", kid })
        .setSubject(claims.userId)
        .setIssuer(issuer)
        .setAudience(issuer)
        .setIssuedAt(now)
        .setExpirationTime(now + ttlSeconds)
        .sign(signingKey);
    },
    async verify(token) {
      const { verifier } = await loaded();
      const claims = await decode(verifier, token);
      if (!claims) return undefined;
      // Outside the verification's error handling: a table outage must be a 500, not "signed out".
      const current = await options.passwordVersion(claims.userId);
      if (current !== undefined && current !== claims.passwordVersion) return undefined;
      return { userId: claims.userId, email: claims.email, role: claims.role };
    },
  };
}

/** The claims of a token that is ours, unexpired and well-formed; undefined for anything else. */
async function decode(verifier: Awaited<ReturnType<typeof loadKeys>>["verifier"], token: string) {
  try {
    const payload = await verifier.verify(token);
    const role = roles.find((r) => r === payload.role);
    if (!role || typeof payload.sub !== "string" || typeof payload.email !== "string") return undefined;
    // Tokens issued before versions existed carry none: they belong to version 0.
    const passwordVersion = typeof payload.pwv === "number" ? payload.pwv : 0;
    return { userId: payload.sub, email: payload.email, role, passwordVersion };
  } catch {
    return undefined;
  }
}

/**
 * Signing key for jose, and an aws-jwt-verify verifier that knows our public key from memory, so
 * verification never goes to the network.
 */
async function loadKeys(privateJwk: () => Promise<PrivateJwk>, issuer: string) {
  const jwk = await privateJwk();
  const signingKey = await importJWK(jwk, "RS256");
  const { kty, n, e, kid } = jwk;
  const publicJwk = { kty: kty as "RSA", n: n as string, e: e as string, kid, alg: "RS256", use: "sig" };
  const findKey = (requestedKid: unknown) => {
    if (requestedKid !== kid) throw new Error("Unknown signing key");
    return publicJwk;
  };
  const jwksCache: JwksCache = {
    getJwk: async (_uri, decomposed) => findKey(decomposed.header.kid),
    getCachedJwk: (_uri, decomposed) => findKey(decomposed.header.kid),
    addJwks: () => undefined,
    getJwks: async () => ({ keys: [publicJwk] }),
  };
  const verifier = JwtVerifier.create(
    { issuer, audience: issuer, jwksUri: `urn:dorsal:${issuer}:jwks` },
    { jwksCache },
  );
  return { signingKey, kid, verifier };
}
