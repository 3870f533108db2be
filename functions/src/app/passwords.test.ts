import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./passwords";

describe("passwords", () => {
  it("hashes with a random salt and verifies only the right password", async () => {
    const first = await hashPassword("clave-secreta");
    const second = await hashPassword("clave-secreta");
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword("clave-secreta", first)).toBe(true);
    expect(await verifyPassword("clave-secretA", first)).toBe(false);
  });

  it("verifies hashes stored before hashing moved to worker threads, NFKC-normalised", async () => {
    // Made by the previous implementation (libuv's crypto.scrypt) from "contraseña-ﬁja", with the ligature.
    const stored = "scrypt$32768$8$1$R9JbQzd1ux9esHhkoRaZFg==$d3H1zYAlHaPGhBJ8nZdh6EA2vBt5jhWex8npO4rs/oo=";
    expect(await verifyPassword("contraseña-ﬁja", stored)).toBe(true);
    expect(await verifyPassword("contraseña-fija", stored)).toBe(true);
    expect(await verifyPassword("contraseña-fijo", stored)).toBe(false);
  });

  it("refuses malformed stored hashes instead of throwing", async () => {
    expect(await verifyPassword("x", "plaintext")).toBe(false);
    expect(await verifyPassword("x", "md5$abc")).toBe(false);
  });

  it("leaves libuv's thread pool to file reads while many hashes run", { timeout: 60_000 }, async () => {
    // libuv's pool serves file reads in the order they were queued; hashes on it would come first.
    const libuvThreads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
    const hashes = libuvThreads * 3;
    let hashed = 0;
    const hashing = Array.from({ length: hashes }, () =>
      hashPassword("clave-secreta").then(() => {
        hashed += 1;
      }),
    );
    await readFile(import.meta.filename);
    const hashedBeforeTheRead = hashed;
    await Promise.all(hashing);
    // On libuv's pool the read would wait for all but the last round of hashes (9 of 12 at least).
    expect(hashedBeforeTheRead).toBeLessThan(hashes / 2);
  });
});
