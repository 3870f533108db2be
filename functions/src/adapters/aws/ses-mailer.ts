import { type SESv2Client, SendEmailCommand } from "@aws-sdk/client-sesv2";
import { parseMailbox } from "@dorsal/shared/mail-texts";
import type { Mailer } from "../../ports/mail";

/**
 * The actions that send (a payment event, an admin's click) wait for SES in the request: past this
 * the send is given up as failed, long before API Gateway's 30 s, and the action goes on.
 */
const sendTimeoutMs = 8_000;

/** SES wants a non-ASCII display name as a MIME encoded-word ('Fotos Medellín' → `=?UTF-8?B?…?=`). */
export function sesFromAddress(from: string): string {
  const mailbox = parseMailbox(from);
  if (!mailbox) throw new Error("MAIL_FROM is not an email address");
  if (!mailbox.name) return mailbox.address;
  const name = /^[\x20-\x7e]*$/.test(mailbox.name)
    ? `"${mailbox.name.replace(/["\\]/g, "\\$&")}"`
    : `=?UTF-8?B?${Buffer.from(mailbox.name, "utf8").toString("base64")}?=`;
  return `${name} <${mailbox.address}>`;
}

/** Amazon SES v2 SendEmail, one recipient, the text and HTML bodies in UTF-8; nothing is kept here. */
export function createSesMailer(client: SESv2Client, from: string): Mailer {
  const fromAddress = sesFromAddress(from);
  const content = (data: string) => ({ Data: data, Charset: "UTF-8" });
  return {
    outbox: null,
    async send(message) {
      await client.send(
        new SendEmailCommand({
          FromEmailAddress: fromAddress,
          Destination: { ToAddresses: [message.to] },
          Content: {
            Simple: {
              Subject: content(message.subject),
              Body: { Text: content(message.text), ...(message.html ? { Html: content(message.html) } : {}) },
            },
          },
        }),
        { abortSignal: AbortSignal.timeout(sendTimeoutMs) },
      );
    },
  };
}
