import type { CreateSaleResponse } from "@dorsal/shared";
import { eventChecksum } from "../../functions/src/adapters/payments/wompi";
import { apiClient } from "./api";

/** A transaction as the sandbox's API (Wompi's protocol) reports it. */
export type SandboxTransaction = { id: string; reference: string; amount_in_cents: number; status: string };

/**
 * A `transaction.updated` event as Wompi signs it: with the sandbox's events secret it is genuine,
 * with another it is forged; `signedAt` is its signed timestamp.
 */
export function signedPaymentEvent(transaction: SandboxTransaction, secret: string, signedAt = new Date()) {
  const unsigned = {
    event: "transaction.updated",
    data: { transaction: { ...transaction, currency: "COP", payment_method_type: "CARD" } },
    environment: "test",
    signature: { properties: ["transaction.id", "transaction.status", "transaction.amount_in_cents"], checksum: "" },
    timestamp: Math.floor(signedAt.getTime() / 1000),
    sent_at: new Date().toISOString(),
  };
  return { ...unsigned, signature: { ...unsigned.signature, checksum: eventChecksum(unsigned, secret) ?? "" } };
}

/**
 * What a buyer's browser does on the local payment sandbox's checkout page: submits its form with
 * one of the buttons ('Aprobar', 'Rechazar', 'Pendiente'). Answers the sandbox's redirect.
 */
export async function chooseOnSandbox(
  dorsalUrl: string,
  paymentUrl: URL,
  outcome: "APPROVED" | "DECLINED" | "PENDING",
): Promise<Response> {
  const form = new URLSearchParams(paymentUrl.searchParams);
  form.set("outcome", outcome);
  return fetch(new URL("/sandbox/wompi/p/", dorsalUrl), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form,
    redirect: "manual",
  });
}

/** The download token a checkout's payment URL brings the buyer back with (its `redirect-url`). */
export const returnToken = (paymentUrl: URL): string =>
  new URL(paymentUrl.searchParams.get("redirect-url") ?? "").searchParams.get("token") ?? "";

/** A checkout as the purchase screen starts it (`POST /api/sales/create`): its answer, payment URL and return token. */
export async function startCheckout(
  dorsalUrl: string,
  cart: { eventId: number; photoIds: string[]; customerEmail: string; dorsalNumber?: string },
) {
  const created = await apiClient(dorsalUrl).post<CreateSaleResponse>("/api/sales/create", {
    customerName: "Ana Gómez",
    ...cart,
  });
  if (created.status !== 201) throw new Error(`checkout not created: ${created.status}`);
  const paymentUrl = new URL(created.body.paymentUrl);
  return { ...created.body, paymentUrl, token: returnToken(paymentUrl) };
}
