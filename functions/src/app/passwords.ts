import { randomBytes, type ScryptOptions, timingSafeEqual } from "node:crypto";
import { availableParallelism } from "node:os";
import { createScryptPool } from "./scrypt-pool";

/**
 * scrypt (memory-hard, in Node's standard library, so no native addon to build on Lambda).
 * N=2^15, r=8 costs ~32 MiB and ~60 ms per hash: slow for guessing, fine for a login.
 */
const params = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } satisfies ScryptOptions;
const keyLength = 32;

const pool = createScryptPool({
  // Hashing gets at most half the cores, so a burst of sign-ins leaves the rest to the HTTP event
  // loop, the table and storage stand-ins and the OCR workers sharing the local runtime. On Lambda
  // a container serves one request at a time, so its pool never grows past one worker anyway.
  workers: Math.max(1, Math.floor(availableParallelism() / 2)),
  // At ~60 ms a hash the last of 64 in line on one worker answers after about 4 s; a longer line
  // would only hold requests until their clients give up, so past it a sign-in fails at once.
  maxQueued: 64,
});

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return pool.derive({ password: password.normalize("NFKC"), salt, keyLength, options });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, "base64");
  const actual = await derive(password, Buffer.from(salt, "base64"), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: params.maxmem,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
