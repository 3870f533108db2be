import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { seal, unseal } from "./sealed";

describe("sealed secrets", () => {
  it("open with their key and owner only, and never show the text", () => {
    const key = randomBytes(32);
    const sealed = seal(key, "usuario-1", '{"accessToken":"ya29.secreto"}');

    expect(JSON.stringify(sealed)).not.toContain("secreto");
    expect(unseal(key, "usuario-1", sealed)).toBe('{"accessToken":"ya29.secreto"}');
    expect(unseal(key, "usuario-2", sealed)).toBeUndefined();
    expect(unseal(randomBytes(32), "usuario-1", sealed)).toBeUndefined();
    expect(unseal(key, "usuario-1", { ...sealed, data: Buffer.from("otro").toString("base64") })).toBeUndefined();
  });
});
