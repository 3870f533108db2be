import { createHash, randomUUID } from "node:crypto";
import { type Role, roles } from "@dorsal/shared";
import { importJWK, type JWK, type JWTPayload, jwtVerify, SignJWT } from "jose";
import { memo } from "../memo";
import type { Clock } from "../ports/clock";

export interface SessionClaims {
  userId: string;
  email: string;
  role: Role;
}

/** What a session must still match of its account to stay valid. */
export interface SessionState {
  role: Role;
  passwordVersion: number;
}

export interface TokenService {
  /** `passwordVersion` is the account's at issue time (data/credentials.ts). */
  issue(claims: SessionClaims & { passwordVersion: number }): Promise<string>;
  /**
   * Returns the claims of a valid, unexpired token signed by us, or undefined — also when the
   * account is gone, its role changed or its password changed after the token was issued.
   */
  verify(token: string): Promise<SessionClaims | undefined>;
  /** Drops what this process remembers of an account, after changing it: its next request reads the table. */
  forget(userId: string): void;
  /** A device token: this browser signed in as `email` (app/throttle.ts). */
  issueDevice(email: string): Promise<string>;
  /** The device's id when `token` is a device token of ours for `email`, unexpired; else undefined. */
  deviceOf(token: string, email: string): Promise<string | undefined>;
}

/** How long a browser stays a known device of an account after it last signed in. */
export const deviceTtlSeconds = 180 * 24 * 3600;
/** Device tokens are never sessions: they are signed for another audience. */
const deviceAudience = (issuer: string) => `${issuer}#dispositivo`;
const emailDigest = (email: string) => createHash("sha256").update(email.trim().toLowerCase()).digest("base64url");

/**
 * How long a process trusts what it read of an account: a role change, a deletion or a password
 * change made through another process (another Lambda) reaches it within this time; one made
 * through this process, at once (`forget`).
 */
export const sessionStateTtlMs = 5_000;
/** Entries kept at most; a process serving more accounts than this reads the table more often. */
const sessionStateCacheSize = 10_000;

export type PrivateJwk = JWK & { kid: string; alg: "RS256" };
/** What checks a token: public, so any function may hold it (in AWS an environment variable). */
export interface PublicJwk {
  kty: "RSA";
  n: string;
  e: string;
  kid: string;
}

export function publicJwkOf(jwk: PrivateJwk): PublicJwk {
  if (jwk.kty !== "RSA" || !jwk.n || !jwk.e) throw new Error("The JWT key is not an RSA JWK");
  return { kty: "RSA", n: jwk.n, e: jwk.e, kid: jwk.kid };
}

/**
 * Session tokens: signed and verified with jose, against our own key pair held in memory, so
 * verification never goes to the network. Only a process given the private key can sign (in AWS
 * the sign-in function alone): a leak elsewhere cannot mint an admin's session.
 */
export function createTokenService(options: {
  /** Verifies; every process has it. */
  publicJwk: () => Promise<PublicJwk>;
  /** Signs; read on first use. Absent where the process must never issue a token. */
  privateJwk?: (() => Promise<PrivateJwk>) | undefined;
  issuer: string;
  ttlSeconds: number;
  clock: Clock;
  /** The account's current role and password version, or undefined when the account is gone. */
  sessionState: (userId: string) => Promise<SessionState | undefined>;
}): TokenService {
  const { issuer, ttlSeconds, clock } = options;
  const states = new Map<string, { state: SessionState | undefined; until: number }>();
  const verifier = memo(async () => createVerifier(await options.publicJwk(), issuer, clock));
  const signer = memo(async () => {
    if (!options.privateJwk) throw new Error("This function holds no JWT signing key: only sign-in issues tokens");
    const jwk = await options.privateJwk();
    return { signingKey: await importJWK(jwk, "RS256"), kid: jwk.kid };
  });

  return {
    async issue(claims) {
      const { signingKey, kid } = await signer();
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
      const verify = await verifier();
      const claims = await decode(verify, token);
      if (!claims) return undefined;
      // Outside the verification's error handling: a table outage must be a 500, not "signed out".
      const current = await currentState(claims.userId);
      if (!current || current.role !== claims.role || current.passwordVersion !== claims.passwordVersion) {
        return undefined;
      }
      return { userId: claims.userId, email: claims.email, role: claims.role };
    },
    forget(userId) {
      states.delete(userId);
    },
    async issueDevice(email) {
      const { signingKey, kid } = await signer();
      const now = Math.floor(clock.now().getTime() / 1000);
      // The email only as a digest: the cookie names no account.
      return new SignJWT({})
        .setProtectedHeader({ alg: "RS256", kid })
        .setSubject(emailDigest(email))
        .setJti(randomUUID())
        .setIssuer(issuer)
        .setAudience(deviceAudience(issuer))
        .setIssuedAt(now)
        .setExpirationTime(now + deviceTtlSeconds)
        .sign(signingKey);
    },
    async deviceOf(token, email) {
      const verify = await verifier();
      try {
        const payload = await verify(token, deviceAudience(issuer));
        return payload.sub === emailDigest(email) && typeof payload.jti === "string" ? payload.jti : undefined;
      } catch {
        return undefined;
      }
    },
  };

  async function currentState(userId: string): Promise<SessionState | undefined> {
    const now = clock.now().getTime();
    const cached = states.get(userId);
    if (cached && cached.until > now) return cached.state;
    const state = await options.sessionState(userId);
    if (states.size >= sessionStateCacheSize) states.clear();
    states.set(userId, { state, until: now + sessionStateTtlMs });
    return state;
  }
}

type Verify = (token: string, audience?: string) => Promise<JWTPayload>;

/** The claims of a token that is ours, unexpired and well-formed; undefined for anything else. */
async function decode(verify: Verify, token: string) {
  try {
    const payload = await verify(token);
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
 * A check of a token against our public key for one audience (the issuer's by default): RS256
 * only, our key id, our issuer, an expiry that has not passed by `clock`.
 */
async function createVerifier(jwk: PublicJwk, issuer: string, clock: Clock): Promise<Verify> {
  const { kty, n, e, kid } = jwk;
  const publicKey = await importJWK({ kty, n, e }, "RS256");
  return async (token, audience = issuer) => {
    const { payload } = await jwtVerify(
      token,
      (header) => {
        if (header.kid !== kid) throw new Error("Unknown signing key");
        return publicKey;
      },
      { issuer, audience, algorithms: ["RS256"], requiredClaims: ["exp"], currentDate: clock.now() },
    );
    return payload;
  };
}
