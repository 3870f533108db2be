import { describe, expect, it } from "vitest";
import { parseMultipart } from "./multipart";

/** A browser's multipart body for `fields`: its bytes and its content type with the boundary. */
async function formBody(fields: [string, string][]): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get("content-type") ?? "" };
}

describe("parseMultipart", () => {
  it("keeps the form's fields by name", async () => {
    const { body, contentType } = await formBody([
      ["eventId", "7"],
      ["note", "__proto__"],
    ]);
    expect((await parseMultipart(body, contentType)).fields).toEqual({ eventId: "7", note: "__proto__" });
  });

  it("refuses a field named like an object's prototype as invalid (400), whatever else the form holds", async () => {
    for (const name of ["__proto__", "constructor", "prototype"]) {
      const { body, contentType } = await formBody([
        ["eventId", "7"],
        [name, "x"],
      ]);
      await expect(parseMultipart(body, contentType)).rejects.toMatchObject({
        kind: "invalid",
        message: "La petición contiene un campo no permitido",
      });
    }
  });
});
