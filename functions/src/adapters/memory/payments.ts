import type { CheckoutRequest, PaymentGateway, PaymentStatus, PaymentTransaction } from "../../ports/payments";

/**
 * The PaymentGateway port held in memory, for use-case tests: the test plays the buyer and the
 * provider. A checkout is recorded; `pay` makes the provider's transaction and returns the event it
 * would send, which `verifyEvent` accepts; any other body is not authentic, as a forged one is not.
 */
export interface MemoryPayments extends PaymentGateway {
  checkouts: CheckoutRequest[];
  pay(
    reference: string,
    status: PaymentStatus,
    amountInCents?: number,
  ): { event: object; transaction: PaymentTransaction };
}

export function createMemoryPayments(): MemoryPayments {
  const checkouts: CheckoutRequest[] = [];
  const transactions = new Map<string, PaymentTransaction>();
  const sent = new WeakSet<object>();
  return {
    checkouts,
    async checkoutUrl(request) {
      checkouts.push(request);
      return `https://pagos.example/checkout/${request.reference}`;
    },
    pay(reference, status, amountInCents) {
      const checkout = checkouts.findLast((request) => request.reference === reference);
      if (!checkout && amountInCents === undefined) throw new Error(`no checkout for ${reference}`);
      const transaction: PaymentTransaction = {
        id: `tx-${transactions.size + 1}`,
        reference,
        amountInCents: amountInCents ?? checkout?.amountInCents ?? 0,
        currency: "COP",
        status,
        paymentMethodType: "CARD",
        statusMessage: status === "DECLINED" ? "Fondos insuficientes" : null,
      };
      transactions.set(transaction.id, transaction);
      const event = { transaction: { ...transaction } };
      sent.add(event);
      return { event, transaction };
    },
    async verifyEvent(body) {
      if (typeof body !== "object" || body === null || !sent.has(body)) return null;
      return { ...(body as { transaction: PaymentTransaction }).transaction };
    },
    async lookup(transactionId) {
      return transactions.get(transactionId) ?? null;
    },
    async selfCheck() {
      return { environment: "test" as const };
    },
    async lookupByReference(reference) {
      return [...transactions.values()].filter((transaction) => transaction.reference === reference);
    },
  };
}
