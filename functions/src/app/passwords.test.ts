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

  it("refuses malformed stored hashes instead of throwing", async () => {
    expect(await verifyPassword("x", "plaintext")).toBe(false);
    expect(await verifyPassword("x", "md5$abc")).toBe(false);
  });
});
