import type { OutboxEntry, OutboxMessage } from "@dorsal/shared";

/** One email; the sender is the configured MAIL_FROM, which the adapter holds. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The same words as HTML, for mail programs that show it. */
  html?: string;
}

/** What was sent, where an adapter keeps it: the local outbox's files, newest first. */
export interface MailOutbox {
  list(page: { limit: number; before?: string | undefined }): Promise<{ messages: OutboxEntry[]; more: boolean }>;
  /** Undefined for an id that names no message of the outbox. */
  read(id: string): Promise<OutboxMessage | undefined>;
}

/**
 * Sends email: Amazon SES on AWS, the local outbox (one .eml file per message) in the embedded
 * runtime. `send` resolves once the message is handed over, and rejects when it could not be.
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Null where mail leaves for good and nothing is kept (SES). */
  readonly outbox: MailOutbox | null;
}
