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
export function createTokenService(options: {
  /** Read on first use, so functions that never sign or check a session never fetch the key. */
  privateJwk: () => Promise<PrivateJwk>;
  issuer: string;
  ttlSeconds: number;
  clock: Clock;
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
      const { verifier } = await loaded();
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
