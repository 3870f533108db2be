import { mailMessages, type OutboxMessage, type OutboxPage } from "@dorsal/shared";
import type { Deps } from "./deps";
import { notFound } from "./errors";

/**
 * GET /api/admin/outbox: what was emailed, newest first, where the mail adapter keeps it (the local
 * outbox); on AWS mail leaves through SES and nothing is kept, which the answer says.
 */
export async function listOutbox(
  deps: Pick<Deps, "mail">,
  page: { limit: number; cursor?: string | undefined },
): Promise<OutboxPage> {
  const { outbox } = deps.mail;
  if (!outbox) return { delivery: "ses", messages: [], nextCursor: null };
  const { messages, more } = await outbox.list({ limit: page.limit, before: page.cursor });
  return { delivery: "outbox", messages, nextCursor: more ? (messages.at(-1)?.id ?? null) : null };
}

/** GET /api/admin/outbox/{id}: one message, its text as written. */
export async function readOutboxMessage(deps: Pick<Deps, "mail">, id: string): Promise<OutboxMessage> {
  const { outbox } = deps.mail;
  if (!outbox) throw notFound(mailMessages.sentThroughSes);
  const message = await outbox.read(id);
  if (!message) throw notFound(mailMessages.messageNotFound);
  return message;
}
