import type { Mailer, MailMessage } from "../../ports/mail";

/** A mailer for use-case tests: what was sent stays in `sent`, in order. */
export function createMemoryMailer(): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    sent,
    outbox: null,
    async send(message) {
      sent.push(message);
    },
  };
}
