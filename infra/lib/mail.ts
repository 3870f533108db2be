import { parseMailbox } from "@dorsal/shared/mail-texts";
import type { IConstruct } from "constructs";

/**
 * The sender of Dorsal's email, from the `mailFrom` context value (`fotos@example.co` or
 * `Fotos Dorsal <fotos@example.co>`), verified in Amazon SES by ops (docs/deploy.md); undefined
 * when not given. `address` is what SES sees as the sender, for the IAM condition.
 */
export function mailFromContext(scope: IConstruct): { value: string; address: string } | undefined {
  const given: unknown = scope.node.tryGetContext("mailFrom");
  if (given === undefined || given === null || String(given).trim() === "") return undefined;
  const value = String(given).trim();
  const mailbox = parseMailbox(value);
  if (!mailbox) throw new Error(`The mailFrom context value is not an email address: ${JSON.stringify(given)}`);
  return { value, address: mailbox.address };
}
