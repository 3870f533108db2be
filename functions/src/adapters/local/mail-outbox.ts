import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { type OutboxEntry, type OutboxMessage, outboxIdPattern } from "@dorsal/shared";
import nodemailer from "nodemailer";
import PostalMime, { type Address } from "postal-mime";
import type { Mailer, MailOutbox } from "../../ports/mail";

const extension = ".eml";

/** `2026-12-06T09:30:00.123Z` → `20261206T093000123Z`: a file name that sorts as the moment does. */
const compactStamp = (at: Date) => at.toISOString().replace(/[-:.]/g, "");
const stampToIso = (id: string) =>
  id.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z.*$/, "$1-$2-$3T$4:$5:$6.$7Z");

const addresses = (list: Address[] | undefined) =>
  (list ?? []).flatMap((entry) => (entry.group ? entry.group : [entry])).map((mailbox) => mailbox.address);

const mailboxOf = (address: Address | undefined) => {
  if (!address || address.group) return "";
  return address.name ? `${address.name} <${address.address}>` : address.address;
};

/**
 * The local runtime's mail: every message an RFC 5322 file under `dir` (`DATA_DIR/outbox`), named
 * by the moment it was written, as a mail server would hand it on. nodemailer composes it (UTF-8,
 * quoted-printable bodies, encoded-word headers, Date and Message-ID); postal-mime reads it back for
 * the admin's 'Correos enviados'. A message is written under a temporary name and renamed, so a
 * listing never meets half a file.
 */
export function createMailOutbox(options: { dir: string; from: string; clock: () => Date }): Mailer {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });
  const fileOf = (id: string) => path.join(options.dir, `${id}${extension}`);

  const parse = async (id: string) => PostalMime.parse(await readFile(fileOf(id)));
  const entryOf = (id: string, parsed: Awaited<ReturnType<typeof parse>>): OutboxEntry => ({
    id,
    to: addresses(parsed.to).join(", "),
    subject: parsed.subject ?? "",
    sentAt: stampToIso(id),
  });

  const outbox: MailOutbox = {
    async list({ limit, before }) {
      let names: string[];
      try {
        names = await readdir(options.dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return { messages: [], more: false };
        throw error;
      }
      const ids = names
        .filter((name) => name.endsWith(extension))
        .map((name) => name.slice(0, -extension.length))
        .filter((id) => outboxIdPattern.test(id) && (before === undefined || id < before))
        .sort()
        .reverse();
      const page = ids.slice(0, limit);
      const messages = await Promise.all(page.map(async (id) => entryOf(id, await parse(id))));
      return { messages, more: ids.length > limit };
    },

    async read(id): Promise<OutboxMessage | undefined> {
      // The id becomes a path: only an outbox name may, whoever the caller is.
      if (!outboxIdPattern.test(id)) return undefined;
      let parsed: Awaited<ReturnType<typeof parse>>;
      try {
        parsed = await parse(id);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
      return { ...entryOf(id, parsed), from: mailboxOf(parsed.from), text: (parsed.text ?? "").trimEnd() };
    },
  };

  return {
    outbox,
    async send(message) {
      const at = options.clock();
      const id = `${compactStamp(at)}-${randomBytes(4).toString("hex")}`;
      const composed = await composer.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        date: at,
      });
      await mkdir(options.dir, { recursive: true });
      const temporary = path.join(options.dir, `.${id}.tmp`);
      await writeFile(temporary, composed.message as Buffer, { mode: 0o600 });
      await rename(temporary, fileOf(id));
    },
  };
}
