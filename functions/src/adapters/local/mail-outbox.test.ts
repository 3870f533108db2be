import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { outboxIdPattern } from "@dorsal/shared";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMailOutbox } from "./mail-outbox";

let dir: string;
let now: Date;
const outbox = () => createMailOutbox({ dir, from: "Fotos Medellín <no-responder@dorsal.local>", clock: () => now });

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "dorsal-outbox-"));
  now = new Date("2026-12-06T09:30:00.123Z");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the local outbox", () => {
  it("writes one RFC 5322 file in 7-bit ASCII whose Spanish subject and body read back as written", async () => {
    const subject = "Tus fotos de la Media Maratón de Bogotá están listas ✓";
    const text = "Hola Ana Gómez:\n\nDescárgalas aquí:\nhttp://localhost:3000/download?token=abc_DEF-123\n\n— Dorsal";
    const mail = outbox();

    await mail.send({ to: "ana.gomez@example.co", subject, text, html: "<p>Hola Ana Gómez</p>" });

    const [name, ...others] = await readdir(dir);
    expect(others).toEqual([]);
    expect(name).toBe(`20261206T093000123Z-${name?.slice(20, 28)}.eml`);
    const raw = await readFile(path.join(dir, name ?? ""));
    // Nothing but 7-bit ASCII on disk, lines ended CRLF: the Spanish is all in the encodings.
    expect([...raw].every((byte) => byte < 0x80)).toBe(true);
    const headers = raw.toString("ascii").split("\r\n\r\n")[0] ?? "";
    expect(headers).toMatch(/^Subject: =\?UTF-8\?[QB]\?/m);
    expect(headers).toMatch(/^From: =\?UTF-8\?[QB]\?.+\?= <no-responder@dorsal\.local>$/m);
    expect(headers).toMatch(/^To: ana\.gomez@example\.co$/m);
    expect(headers).toMatch(/^Date: Sun, 06 Dec 2026 09:30:00 \+0000$/m);
    expect(headers).toMatch(/^Message-ID: <.+@dorsal\.local>$/m);
    expect(raw.toString("ascii")).toMatch(
      /Content-Type: text\/plain; charset=utf-8\r\nContent-Transfer-Encoding: (quoted-printable|base64)/,
    );

    const id = name?.replace(/\.eml$/, "") ?? "";
    expect(id).toMatch(outboxIdPattern);
    expect(await mail.outbox?.read(id)).toEqual({
      id,
      to: "ana.gomez@example.co",
      from: "Fotos Medellín <no-responder@dorsal.local>",
      subject,
      sentAt: "2026-12-06T09:30:00.123Z",
      text,
    });
  });

  it("lists newest first, a page at a time, and reads nothing but its own messages", async () => {
    const mail = outbox();
    for (let i = 0; i < 5; i++) {
      now = new Date(now.getTime() + 1000);
      await mail.send({ to: `corredor${i}@example.co`, subject: `Mensaje ${i}`, text: "Hola" });
    }
    // What is not a finished message is never listed: a file being written, anything else.
    await writeFile(path.join(dir, ".20261206T093010000Z-00000000.tmp"), "a medias");
    await writeFile(path.join(dir, "notas.txt"), "otra cosa");

    const first = await mail.outbox?.list({ limit: 3 });
    expect(first?.messages.map((message) => message.subject)).toEqual(["Mensaje 4", "Mensaje 3", "Mensaje 2"]);
    expect(first?.more).toBe(true);
    const second = await mail.outbox?.list({ limit: 3, before: first?.messages.at(-1)?.id });
    expect(second?.messages.map((message) => message.to)).toEqual(["corredor1@example.co", "corredor0@example.co"]);
    expect(second?.more).toBe(false);

    for (const id of ["../../etc/passwd", "notas", "20261206T093000123Z-0000000g", "20991206T093000123Z-00000000"]) {
      expect(await mail.outbox?.read(id)).toBeUndefined();
    }
  });

  it("lists nothing before the first message made its folder", async () => {
    const mail = createMailOutbox({ dir: path.join(dir, "aun-no"), from: "a@b.co", clock: () => now });
    expect(await mail.outbox?.list({ limit: 20 })).toEqual({ messages: [], more: false });
  });
});
