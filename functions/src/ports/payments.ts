/**
 * A card payment provider with a hosted checkout (Wompi today): the buyer pays on the provider's
 * page, the provider tells us through signed events, and we can ask it about a transaction. Only
 * a verified event or a server-side lookup may ever make a sale paid (docs/payments.md).
 */
export const paymentStatuses = ["PENDING", "APPROVED", "DECLINED", "VOIDED", "ERROR"] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

export interface PaymentTransaction {
  id: string;
  reference: string;
  amountInCents: number;
  currency: string;
  status: PaymentStatus;
  paymentMethodType: string | null;
  /** The provider's own words on why a payment was declined or failed (Wompi's `status_message`). */
  statusMessage: string | null;
}

export interface CheckoutRequest {
  /** Ours, unique per sale: how the provider's transactions find their sale. */
  reference: string;
  amountInCents: number;
  currency: "COP";
  /** Where the provider sends the buyer back, with `id=<transactionId>` added. */
  redirectUrl: string;
  customerEmail: string;
  customerName: string;
  /** The checkout refuses to take a payment after this moment. */
  expirationTime: Date;
}

export interface PaymentGateway {
  /** The hosted checkout page for this payment, signed so nobody can change amount or reference. */
  checkoutUrl(request: CheckoutRequest): Promise<string>;
  /**
   * The transaction an event reports, or null when the event is not authentic, not for this
   * environment, or signed too long before `receivedAt` (or too far after it) to be a delivery
   * rather than a replay.
   */
  verifyEvent(body: unknown, receivedAt: Date, headerChecksum?: string): Promise<PaymentTransaction | null>;
  /** Asks the provider; null when it does not know the transaction. */
  lookup(transactionId: string): Promise<PaymentTransaction | null>;
  /** Every transaction the provider holds for one of our references (a buyer may retry after a decline). */
  lookupByReference(reference: string): Promise<PaymentTransaction[]>;
  /**
   * For the preflight: the keys load, an event signed with them verifies, and the provider's API
   * accepts them. Rejects with the reason otherwise; tells whether the keys take real money.
   */
  selfCheck(): Promise<{ environment: "test" | "prod" }>;
}
