import type { MailOutcome } from "@dorsal/shared";
import type { MailText } from "@dorsal/shared/mail-texts";
import type { MailMessage } from "../ports/mail";
import type { Deps } from "./deps";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Links as anchors; everything else escaped, so no text a buyer or an applicant typed becomes markup. */
const linkified = (text: string) =>
  text
    .split(/(https?:\/\/[^\s<>"']+)/)
    .map((part, index) =>
      index % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part),
    )
    .join("");

/** The plain text (paragraphs apart by a blank line) and the same words as simple HTML. */
export function composeMail(to: string, { subject, paragraphs }: MailText): MailMessage {
  return {
    to,
    subject,
    text: paragraphs.join("\n\n"),
    html: paragraphs.map((paragraph) => `<p>${linkified(paragraph).replaceAll("\n", "<br>")}</p>`).join("\n"),
  };
}

/**
 * Sends the email of an action that has already happened (a sale paid, a code created): a failure
 * never undoes or breaks it. It is logged with what the caller names (ids, never the message, whose
 * body may hold a download link) and reported, so the admin who triggered it sees it was not sent.
 */
export async function sendMail(
  deps: Pick<Deps, "mail" | "logger">,
  to: string,
  text: MailText,
  about: { purpose: string } & Record<string, string | number>,
): Promise<MailOutcome> {
  try {
    await deps.mail.send(composeMail(to, text));
    return { to, sent: true };
  } catch (error) {
    const reason = error instanceof Error ? { error: error.name, message: error.message } : { error: String(error) };
    deps.logger.warn("email not sent", { ...about, ...reason });
    return { to, sent: false };
  }
}
