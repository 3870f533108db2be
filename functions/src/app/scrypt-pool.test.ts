import { randomBytes, scryptSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AppError } from "./errors";
import { createScryptPool, type ScryptRequest } from "./scrypt-pool";

const request = (password: string, options: ScryptRequest["options"] = { N: 2 ** 14, r: 8, p: 1 }) => ({
  password,
  salt: randomBytes(16),
  keyLength: 32,
  options,
});

describe("scrypt pool", () => {
  it("derives the same key as scrypt in the calling thread", async () => {
    const pool = createScryptPool({ workers: 1, maxQueued: 4 });
    const job = request("clave-secreta");
    const key = await pool.derive(job);
    expect(key.equals(scryptSync(job.password, job.salt, job.keyLength, job.options))).toBe(true);
  });

  it("refuses with 503 what does not fit in the queue, and serves the rest", async () => {
    const pool = createScryptPool({ workers: 1, maxQueued: 2 });
    const results = await Promise.allSettled(["a", "b", "c", "d"].map((password) => pool.derive(request(password))));
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "rejected"]);
    const refusal = (results[3] as PromiseRejectedResult).reason;
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).kind).toBe("unavailable");
    expect((await pool.derive(request("e"))).length).toBe(32);
  });

  it("rejects a derivation scrypt refuses, and the worker keeps serving", async () => {
    const pool = createScryptPool({ workers: 1, maxQueued: 4 });
    await expect(pool.derive(request("x", { N: 3, r: 8, p: 1 }))).rejects.toThrow(/scrypt failed/);
    expect((await pool.derive(request("y"))).length).toBe(32);
  });
});
