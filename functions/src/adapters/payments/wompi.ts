import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import {
  type CheckoutRequest,
  type PaymentGateway,
  type PaymentTransaction,
  paymentStatuses,
} from "../../ports/payments";

/**
 * Wompi (Bancolombia): hosted web checkout, signed `transaction.updated` events and the transactions
 * API, as /work/shared/design/PAYMENTS.md and Wompi's own documents describe them. The local
 * sandbox (functions/local/wompi-sandbox.ts) speaks the same protocol, so this one adapter serves
 * both runtimes.
 */

export interface WompiKeys {
  publicKey: string;
  privateKey: string;
  integritySecret: string;
  eventsSecret: string;
}

/** The keys as ops store them (the AWS secret's JSON); the prefixes catch a placeholder left in place. */
export const wompiKeysSchema = z.object({
  publicKey: z.string().regex(/^pub_(test|prod)_\w+$/),
  privateKey: z.string().regex(/^prv_(test|prod)_\w+$/),
  integritySecret: z.string().regex(/^(test|prod)_integrity_\w+$/),
  eventsSecret: z.string().regex(/^(test|prod)_events_\w+$/),
});

/** The keys from the secret's text; the error never quotes the text, which holds the keys. */
export function parseWompiKeys(text: string): WompiKeys {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = wompiKeysSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      "The Wompi secret must be JSON {publicKey, privateKey, integritySecret, eventsSecret} as Wompi issues them",
    );
  }
  return parsed.data;
}

export type WompiEnvironment = "test" | "prod";

export interface WompiOptions {
  /** The hosted checkout page; Wompi's own by default. */
  checkoutUrl?: string | undefined;
  /** The API base; by default Wompi's sandbox or production API, as the keys say. */
  apiUrl?: string | undefined;
  /** Loaded on first use: on AWS they come from Secrets Manager. The keys also say the environment. */
  keys: () => Promise<WompiKeys>;
}

/** Wompi's keys say which environment they belong to (`pub_test_…`, `pub_prod_…`). */
export const environmentOfKey = (publicKey: string): WompiEnvironment =>
  publicKey.startsWith("pub_prod_") ? "prod" : "test";

const defaultWompiUrls = {
  checkout: "https://checkout.wompi.co/p/",
  api: { test: "https://sandbox.wompi.co/v1", prod: "https://production.wompi.co/v1" },
} as const;

export const sha256Hex = (input: string) => createHash("sha256").update(input, "utf8").digest("hex");

/** `signature:integrity`: plain SHA-256 of the concatenation (not an HMAC), as Wompi defines it. */
export function integritySignature(
  payment: { reference: string; amountInCents: number; currency: string; expirationTime?: string },
  integritySecret: string,
): string {
  return sha256Hex(
    `${payment.reference}${payment.amountInCents}${payment.currency}${payment.expirationTime ?? ""}${integritySecret}`,
  );
}

/** Case-insensitive (Wompi's header is upper-case, its body lower-case) and constant-time. */
export function checksumsMatch(expected: string, given: string): boolean {
  const a = Buffer.from(expected.toLowerCase(), "utf8");
  const b = Buffer.from(given.toLowerCase(), "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

const wompiTransaction = z.object({
  id: z.string().min(1),
  reference: z.string().min(1),
  amount_in_cents: z.number().int().nonnegative(),
  currency: z.string().min(1),
  status: z.enum(paymentStatuses),
  payment_method_type: z.string().nullish(),
  status_message: z.string().nullish(),
});
type WompiTransaction = z.infer<typeof wompiTransaction>;

const wompiEvent = z.object({
  event: z.string(),
  data: z.record(z.string(), z.unknown()),
  environment: z.string(),
  signature: z.object({ properties: z.array(z.string().min(1)).min(1), checksum: z.string().min(1) }),
  timestamp: z.number().int(),
});
type WompiEvent = z.infer<typeof wompiEvent>;

/** A value named by a signature property (`transaction.amount_in_cents`), read under `data`. */
function propertyValue(data: Record<string, unknown>, property: string): string | undefined {
  let value: unknown = data;
  for (const segment of property.split(".")) {
    // Own properties only: a property list is attacker-controlled input.
    if (!value || typeof value !== "object" || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    ? String(value)
    : undefined;
}

/**
 * The checksum an event must carry: SHA-256 of the values its `signature.properties` name, in
 * that order, then the timestamp and the events secret. The list comes from the event itself
 * (Wompi may change it), so it is never hard-coded; undefined when a named value is missing.
 */
export function eventChecksum(event: Pick<WompiEvent, "data" | "signature" | "timestamp">, eventsSecret: string) {
  const values = event.signature.properties.map((property) => propertyValue(event.data, property));
  if (values.some((value) => value === undefined)) return undefined;
  return sha256Hex(`${values.join("")}${event.timestamp}${eventsSecret}`);
}

/**
 * How long after its signed `timestamp` an event is still acted on. Wompi retries a non-200 answer
 * after 30 min, 3 h and 24 h; counted one after another that is 27.5 h, and 48 h leaves most of a
 * day more for delays in Wompi's own queue. An older event can only be a replay (its checksum
 * stays valid forever); a pending sale whose event is refused is still settled by reconciliation,
 * which asks Wompi itself.
 */
export const eventMaxAgeSeconds = 48 * 3600;
/** Clock skew tolerated between Wompi and us; an event signed further in the future is refused. */
export const eventMaxAheadSeconds = 5 * 60;

const toTransaction = (transaction: WompiTransaction): PaymentTransaction => ({
  id: transaction.id,
  reference: transaction.reference,
  amountInCents: transaction.amount_in_cents,
  currency: transaction.currency,
  status: transaction.status,
  paymentMethodType: transaction.payment_method_type ?? null,
  // Wompi's reasons are short; a long one is cut rather than stored whole on the sale.
  statusMessage: transaction.status_message?.trim().slice(0, 200) || null,
});

export function createWompiGateway(options: WompiOptions): PaymentGateway {
  const api = async (path: string): Promise<unknown> => {
    const { privateKey, publicKey } = await options.keys();
    const base = options.apiUrl ?? defaultWompiUrls.api[environmentOfKey(publicKey)];
    const response = await fetch(`${base.replace(/\/$/, "")}${path}`, {
      headers: { authorization: `Bearer ${privateKey}`, accept: "application/json" },
      signal: AbortSignal.timeout(10_000),
    });
    if (response.status === 404) return undefined;
    if (!response.ok) throw new Error(`Wompi answered ${response.status} to GET ${path}`);
    return response.json();
  };

  const gateway: PaymentGateway = {
    async checkoutUrl(request: CheckoutRequest): Promise<string> {
      const keys = await options.keys();
      const expirationTime = request.expirationTime.toISOString();
      const url = new URL(options.checkoutUrl ?? defaultWompiUrls.checkout);
      const params = {
        "public-key": keys.publicKey,
        currency: request.currency,
        "amount-in-cents": String(request.amountInCents),
        reference: request.reference,
        "signature:integrity": integritySignature({ ...request, expirationTime }, keys.integritySecret),
        "redirect-url": request.redirectUrl,
        "expiration-time": expirationTime,
        "customer-data:email": request.customerEmail,
        "customer-data:full-name": request.customerName,
      };
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      return url.toString();
    },

    async verifyEvent(body: unknown, receivedAt: Date, headerChecksum?: string): Promise<PaymentTransaction | null> {
      const parsed = wompiEvent.safeParse(body);
      if (!parsed.success) return null;
      const event = parsed.data;
      const keys = await options.keys();
      const expected = eventChecksum(event, keys.eventsSecret);
      if (!expected || !checksumsMatch(expected, event.signature.checksum)) return null;
      if (headerChecksum !== undefined && !checksumsMatch(expected, headerChecksum)) return null;
      // Only now is the timestamp known to be Wompi's: it is part of the checksum.
      const ageSeconds = receivedAt.getTime() / 1000 - event.timestamp;
      if (ageSeconds > eventMaxAgeSeconds || ageSeconds < -eventMaxAheadSeconds) return null;
      // A test event must never settle a production sale, nor the other way round.
      if (event.environment !== environmentOfKey(keys.publicKey) || event.event !== "transaction.updated") return null;
      const transaction = wompiTransaction.safeParse(event.data.transaction);
      return transaction.success ? toTransaction(transaction.data) : null;
    },

    async lookup(transactionId: string): Promise<PaymentTransaction | null> {
      const body = await api(`/transactions/${encodeURIComponent(transactionId)}`);
      if (body === undefined) return null;
      return toTransaction(z.object({ data: wompiTransaction }).parse(body).data);
    },

    async lookupByReference(reference: string): Promise<PaymentTransaction[]> {
      const body = await api(`/transactions?reference=${encodeURIComponent(reference)}`);
      if (body === undefined) return [];
      return z
        .object({ data: z.array(wompiTransaction) })
        .parse(body)
        .data.map(toTransaction);
    },

    async selfCheck() {
      const keys = await options.keys();
      const environment = environmentOfKey(keys.publicKey);
      const signedAt = new Date();
      const transaction = {
        id: `preflight-${randomUUID()}`,
        reference: `preflight-${randomUUID()}`,
        amount_in_cents: 100,
        currency: "COP",
        status: "DECLINED",
      };
      const unsigned = {
        event: "transaction.updated",
        data: { transaction },
        environment,
        signature: {
          properties: ["transaction.id", "transaction.status", "transaction.amount_in_cents"],
          checksum: "",
        },
        timestamp: Math.floor(signedAt.getTime() / 1000),
      };
      const checksum = eventChecksum(unsigned, keys.eventsSecret) ?? "";
      const event = { ...unsigned, signature: { ...unsigned.signature, checksum } };
      if (!(await gateway.verifyEvent(event, signedAt, checksum))) {
        throw new Error("an event signed with the events secret does not verify");
      }
      // A reference nobody used: the answer is an empty list, unless the private key is refused.
      await gateway.lookupByReference(transaction.reference);
      return { environment };
    },
  };
  return gateway;
}
