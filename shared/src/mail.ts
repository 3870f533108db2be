import { z } from "zod";

/**
 * Email (issue 22 item 4): how the admin reads what was sent. What Dorsal sends is in
 * mail-texts.ts (`@dorsal/shared/mail-texts`), outside the package index, so the athlete's first
 * load does not carry the emails' words.
 */

export const mailMessages = {
  notSent: "No se pudo enviar el correo",
  /** Shown by /admin/outbox, and answered by its API, where mail leaves through Amazon SES. */
  sentThroughSes:
    "En AWS los correos salen por Amazon SES y Dorsal no guarda una copia: revisa la entrega en la consola de Amazon SES.",
  messageNotFound: "Correo no encontrado",
  outboxIdInvalid: "Identificador de correo inválido",
} as const;

/** What happened to the email an action sends: the action itself succeeded either way. */
export interface MailOutcome {
  to: string;
  sent: boolean;
}

/**
 * A local outbox message's id: its file name without `.eml`, the moment it was written (UTC, to the
 * millisecond) and 8 random hex digits, so names sort by time and nothing else can be named.
 */
export const outboxIdPattern = /^\d{8}T\d{9}Z-[0-9a-f]{8}$/;
export const outboxId = z.string().regex(outboxIdPattern, mailMessages.outboxIdInvalid);

/** GET /api/admin/outbox: newest first; `cursor` is the last id of the page before. */
export const outboxQuery = z.object({
  cursor: outboxId.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type OutboxQuery = z.input<typeof outboxQuery>;

export interface OutboxEntry {
  id: string;
  to: string;
  subject: string;
  sentAt: string;
}

export interface OutboxMessage extends OutboxEntry {
  from: string;
  /** The plain-text part: what the screen shows, with its links made clickable. */
  text: string;
}

/**
 * Where mail goes decides what can be listed: the local outbox keeps every message as a file; on
 * AWS mail leaves through SES and nothing is kept (the screen says so).
 */
export interface OutboxPage {
  delivery: "outbox" | "ses";
  messages: OutboxEntry[];
  nextCursor: string | null;
}
