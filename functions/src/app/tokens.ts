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
  issue(claims: SessionClaims): Promise<string>;
  /** Returns the claims of a valid, unexpired token signed by us, or undefined. */
  verify(token: string): Promise<SessionClaims | undefined>;
}

export type PrivateJwk = JWK & { kid: string; alg: "RS256" };

/**
 * Session tokens: signed with jose, verified with aws-jwt-verify against our own public key. The
 * JWKS is held in memory, so verification never goes to the network.
 */
export async function createTokenService(options: {
  privateJwk: PrivateJwk;
  issuer: string;
  ttlSeconds: number;
  clock: Clock;
}): Promise<TokenService> {
  const { privateJwk, issuer, ttlSeconds, clock } = options;
  const signingKey = await importJWK(privateJwk, "RS256");
  const { kty, n, e, kid } = privateJwk;
  const publicJwk = { kty: kty as "RSA", n: n as string, e: e as string, kid, alg: "RS256", use: "sig" };
  const jwksUri = `urn:dorsal:${issuer}:jwks`;
  const jwksCache: JwksCache = {
    getJwk: async (_uri, decomposed) => findKey(decomposed.header.kid),
    getCachedJwk: (_uri, decomposed) => findKey(decomposed.header.kid),
    addJwks: () => undefined,
    getJwks: async () => ({ keys: [publicJwk] }),
  };
  function findKey(requestedKid: unknown) {
    if (requestedKid !== kid) throw new Error("Unknown signing key");
    return publicJwk;
  }
  const verifier = JwtVerifier.create({ issuer, audience: issuer, jwksUri }, { jwksCache });

  return {
    async issue(claims) {
      const now = Math.floor(clock.now().getTime() / 1000);
      return new SignJWT({ email: claims.email, role: claims.role })
        .setProtectedHeader({ alg: "RS256", kid })
        .setSubject(claims.userId)
        .setIssuer(issuer)
        .setAudience(issuer)
        .setIssuedAt(now)
        .setExpirationTime(now + ttlSeconds)
        .sign(signingKey);
    },
    async verify(token) {
      try {
        const payload = await verifier.verify(token);
        const role = roles.find((r) => r === payload.role);
        if (!role || typeof payload.sub !== "string" || typeof payload.email !== "string") return undefined;
        return { userId: payload.sub, email: payload.email, role };
      } catch {
        return undefined;
      }
    },
  };
}
