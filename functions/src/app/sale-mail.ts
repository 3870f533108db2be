import { mailTexts } from "@dorsal/shared/mail-texts";
import type { SaleRecord } from "../data/sales";
import { drawDownloadToken } from "./checkout";
import type { Deps } from "./deps";
import { sendMail } from "./mail";

export type SaleMailDeps = Pick<Deps, "clock" | "sales" | "events" | "mail" | "logger" | "siteUrl">;

/** The facts every email about a sale's link states, with the link itself. */
export async function saleMailFacts(deps: Pick<Deps, "events">, sale: SaleRecord, link: string) {
  const event = await deps.events.get(sale.eventId);
  return {
    customerName: sale.customerName,
    eventName: event?.name ?? "tu evento",
    dorsalNumber: sale.dorsalNumber,
    photoCount: sale.photoIds.length,
    link,
    expiresAt: sale.expiresAt,
    maxDownloads: sale.maxDownloads,
  };
}

export const downloadLink = (deps: Pick<Deps, "siteUrl">, token: string) => `${deps.siteUrl}/download?token=${token}`;

/**
 * The buyer's email when their sale becomes paid, called only by the one settlement that made it
 * paid (so a redelivered event or a reconciliation racing it sends nothing more). It carries a
 * second token of the sale, drawn here: its raw value exists only in this message, the table keeps
 * its hash, and the return page's link keeps working beside it. Nothing here may fail the
 * settlement: the sale is paid whether or not the email goes out.
 */
export async function emailPaidSale(deps: SaleMailDeps, sale: SaleRecord): Promise<void> {
  try {
    const { token, tokenHash } = drawDownloadToken();
    if (!(await deps.sales.addEmailToken(sale, tokenHash, deps.clock.now()))) return;
    const facts = await saleMailFacts(deps, sale, downloadLink(deps, token));
    await sendMail(
      deps,
      sale.customerEmail,
      mailTexts.salePaid({ ...facts, amount: sale.amount, reference: sale.reference }),
      {
        purpose: "sale-paid",
        saleId: sale.id,
      },
    );
  } catch (error) {
    deps.logger.warn("email not sent", {
      purpose: "sale-paid",
      saleId: sale.id,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
