import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checksumsMatch,
  createWompiGateway,
  environmentOfKey,
  eventChecksum,
  eventMaxAgeSeconds,
  eventMaxAheadSeconds,
  integritySignature,
  parseWompiKeys,
  sha256Hex,
  type WompiKeys,
} from "./wompi";

// Inputs from Wompi's documentation; every hash recomputed (shared/design/PAYMENTS.md).
const integritySecret = "prod_integrity_Z5mMke9x0k8gpErbDqwrJXMqsI6SFli6";
const eventsSecret = "prod_events_OcHnIzeBl5socpwByQ4hA52Em3USQ93Z";
const keys: WompiKeys = { publicKey: "pub_prod_x", privateKey: "prv_prod_x", integritySecret, eventsSecret };

const documentedEvent = () => ({
  event: "transaction.updated",
  data: {
    transaction: {
      id: "1234-1610641025-49201",
      amount_in_cents: 4490000,
      reference: "MZQ3X2DE2SMX",
      customer_email: "juan.perez@gmail.com",
      currency: "COP",
      payment_method_type: "NEQUI",
      redirect_url: "https://mitienda.com.co/pagos/redireccion",
      status: "APPROVED",
    },
  },
  environment: "prod",
  signature: {
    properties: ["transaction.id", "transaction.status", "transaction.amount_in_cents"],
    checksum: "5a18ec5e8fdb7df463e9f94774cba8f583ba21bd04a09ceff2ea68a4bc0aefbe",
  },
  timestamp: 1530291411,
  sent_at: "2018-07-20T16:45:05.000Z",
});
/** When the documented event was signed: its `timestamp`. */
const signedAt = new Date(1530291411 * 1000);

describe("Wompi signatures", () => {
  it("signs a checkout as Wompi's integrity examples do, with and without expiration time", () => {
    const payment = { reference: "sk8-438k4-xmxm392-sn2m", amountInCents: 2490000, currency: "COP" };
    expect(integritySignature(payment, integritySecret)).toBe(
      "37c8407747e595535433ef8f6a811d853cd943046624a0ec04662b17bbf33bf5",
    );
    expect(integritySignature({ ...payment, expirationTime: "2023-06-09T20:28:50.000Z" }, integritySecret)).toBe(
      "e972f58e7de36b283fbb93d9318d39a54ffdff4e8e917b534f30d63c9d7bb89c",
    );
  });

  it("computes the event checksum from the properties the event names, in their order", () => {
    const event = documentedEvent();
    expect(eventChecksum(event, eventsSecret)).toBe(event.signature.checksum);
    // Wompi's page prints 3476DDA5…8BD0 for this very string: it is not its SHA-256.
    expect(sha256Hex(`1234-1610641025-49201APPROVED44900001530291411${eventsSecret}`)).toBe(event.signature.checksum);
    expect(eventChecksum(event, eventsSecret)?.toUpperCase().startsWith("3476DDA5")).toBe(false);
    const reordered = {
      ...event,
      signature: { ...event.signature, properties: ["transaction.status", "transaction.id"] },
    };
    expect(eventChecksum(reordered, eventsSecret)).toBe(
      sha256Hex(`APPROVED1234-1610641025-492011530291411${eventsSecret}`),
    );
    const missing = { ...event, signature: { ...event.signature, properties: ["transaction.nothing"] } };
    expect(eventChecksum(missing, eventsSecret)).toBeUndefined();
    const prototype = { ...event, signature: { ...event.signature, properties: ["transaction.constructor"] } };
    expect(eventChecksum(prototype, eventsSecret)).toBeUndefined();
  });

  it("compares checksums case-insensitively", () => {
    expect(checksumsMatch("abc123", "ABC123")).toBe(true);
    expect(checksumsMatch("abc123", "abc124")).toBe(false);
    expect(checksumsMatch("abc123", "abc12")).toBe(false);
  });

  it("reads the keys from the secret's JSON, refusing a placeholder without quoting it", () => {
    expect(parseWompiKeys(JSON.stringify(keys))).toEqual(keys);
    expect(() => parseWompiKeys("s3cr3t-placeholder")).toThrow(/^(?!.*s3cr3t)/);
    expect(() => parseWompiKeys(JSON.stringify({ ...keys, publicKey: "" }))).toThrow(/Wompi secret/);
  });

  it("tells the environment from the public key", () => {
    expect(environmentOfKey("pub_prod_abc")).toBe("prod");
    expect(environmentOfKey("pub_test_abc")).toBe("test");
  });
});

describe("Wompi gateway", () => {
  const gateway = (apiUrl?: string, publicKey = keys.publicKey) =>
    createWompiGateway({ apiUrl, keys: async () => ({ ...keys, publicKey }) });

  it("builds a hosted checkout URL carrying a valid integrity signature", async () => {
    const expirationTime = new Date("2026-11-24T12:30:00.000Z");
    const url = new URL(
      await gateway().checkoutUrl({
        reference: "DOR-1",
        amountInCents: 2000000,
        currency: "COP",
        redirectUrl: "https://dorsal.example/download?token=abc",
        customerEmail: "ana@example.co",
        customerName: "Ana Gómez",
        expirationTime,
      }),
    );
    expect(url.origin + url.pathname).toBe("https://checkout.wompi.co/p/");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      "public-key": "pub_prod_x",
      currency: "COP",
      "amount-in-cents": "2000000",
      reference: "DOR-1",
      "signature:integrity": sha256Hex(`DOR-12000000COP2026-11-24T12:30:00.000Z${integritySecret}`),
      "redirect-url": "https://dorsal.example/download?token=abc",
      "expiration-time": "2026-11-24T12:30:00.000Z",
      "customer-data:email": "ana@example.co",
      "customer-data:full-name": "Ana Gómez",
    });
  });

  it("accepts an authentic event and refuses a forged, tampered or foreign one", async () => {
    const event = documentedEvent();
    expect(await gateway().verifyEvent(event, signedAt, event.signature.checksum.toUpperCase())).toEqual({
      id: "1234-1610641025-49201",
      reference: "MZQ3X2DE2SMX",
      amountInCents: 4490000,
      currency: "COP",
      status: "APPROVED",
      paymentMethodType: "NEQUI",
      statusMessage: null,
    });
    expect(await gateway().verifyEvent(event, signedAt)).not.toBeNull();
    expect(await gateway().verifyEvent(event, signedAt, "0".repeat(64))).toBeNull();
    const tampered = documentedEvent();
    tampered.data.transaction.amount_in_cents = 100;
    expect(await gateway().verifyEvent(tampered, signedAt)).toBeNull();
    // A production event never settles anything for sandbox keys.
    expect(await gateway(undefined, "pub_test_x").verifyEvent(event, signedAt)).toBeNull();
    expect(await gateway().verifyEvent({ event: "transaction.updated" }, signedAt)).toBeNull();
  });

  it("acts on an event for 48 h after it was signed, past Wompi's last retry, and on none from the future", async () => {
    expect(eventMaxAgeSeconds).toBeGreaterThan((0.5 + 3 + 24) * 3600);
    const event = documentedEvent();
    const receivedAfter = (seconds: number) => new Date(signedAt.getTime() + seconds * 1000);
    expect(await gateway().verifyEvent(event, receivedAfter(eventMaxAgeSeconds))).not.toBeNull();
    expect(await gateway().verifyEvent(event, receivedAfter(eventMaxAgeSeconds + 1))).toBeNull();
    expect(await gateway().verifyEvent(event, new Date())).toBeNull();
    expect(await gateway().verifyEvent(event, receivedAfter(-eventMaxAheadSeconds))).not.toBeNull();
    expect(await gateway().verifyEvent(event, receivedAfter(-eventMaxAheadSeconds - 1))).toBeNull();
  });

  describe("against an API", () => {
    let server: ReturnType<typeof createServer>;
    let apiUrl = "";
    const transaction = documentedEvent().data.transaction;
    beforeAll(async () => {
      server = createServer((request, response) => {
        const url = new URL(request.url ?? "/", "http://localhost");
        if (request.headers.authorization !== `Bearer ${keys.privateKey}`) {
          response.writeHead(401).end();
        } else if (url.pathname === `/v1/transactions/${transaction.id}`) {
          response.end(JSON.stringify({ data: transaction }));
        } else if (url.pathname === "/v1/transactions" && url.searchParams.get("reference") === transaction.reference) {
          response.end(JSON.stringify({ data: [transaction] }));
        } else if (url.pathname === "/v1/transactions") {
          response.end(JSON.stringify({ data: [] }));
        } else {
          response.writeHead(404).end(JSON.stringify({ error: { type: "NOT_FOUND_ERROR" } }));
        }
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("looks transactions up by id and by reference with the private key", async () => {
      expect(await gateway(apiUrl).lookup(transaction.id)).toMatchObject({ id: transaction.id, status: "APPROVED" });
      expect(await gateway(apiUrl).lookup("nope")).toBeNull();
      expect(await gateway(apiUrl).lookupByReference(transaction.reference)).toHaveLength(1);
      expect(await gateway(apiUrl).lookupByReference("other")).toEqual([]);
    });
  });
});
