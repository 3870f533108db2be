import { createSaleRequest, defaultEventPricing, salesMessages } from "@dorsal/shared";
import { describe, expect, it } from "vitest";
import { storePricingInDollars } from "../testing/legacy-pricing";
import { runnerWearing, scriptedWorld } from "../testing/scripted-world";
import { createSale, quoteCart } from "./checkout";
import { saveEventPricing } from "./pricing";
import { receivePaymentEvent, reconcilePendingSales } from "./settlement";

const buyer = { customerName: "Ana Gómez", customerEmail: "ana.gomez@example.co" };
const origin = "http://192.168.1.20:3000";

/** Prepare: three processed photos of bib 4821 in a paid event, and the sale request for them. */
async function cartWorld() {
  const world = await scriptedWorld();
  const photoIds: string[] = [];
  for (let i = 0; i < 3; i++) photoIds.push((await world.process(runnerWearing("4821"))).photoId);
  const request = (amount?: number) =>
    createSaleRequest.parse({ eventId: world.event.id, dorsalNumber: "4821", photoIds, ...buyer, amount });
  return { ...world, photoIds, request };
}

describe("checkout and settlement, on in-memory ports", () => {
  it("charges the server's own figure (3 photos: spec §9's 20.000 bundle) and refuses a stale one", async () => {
    const { deps, payments, request } = await cartWorld();

    const stale = createSale(deps, request(45_000), origin);
    const sale = await createSale(deps, request(20_000), origin);

    await expect(stale).rejects.toMatchObject({ kind: "conflict", message: salesMessages.priceChanged });
    expect(sale).toMatchObject({ amount: 20_000, reference: expect.stringMatching(/^DOR-/) });
    expect(payments.checkouts).toEqual([
      expect.objectContaining({
        reference: sale.reference,
        amountInCents: 2_000_000,
        currency: "COP",
        redirectUrl: expect.stringMatching(/^http:\/\/192\.168\.1\.20:3000\/download\?token=[\w-]{43}$/),
      }),
    ]);
    expect(await deps.sales.get(sale.saleId)).toMatchObject({ status: "pending", paidAt: null });
  });

  it("reads a pricing stored in dollars before pesos-only, and sells nothing of the event until it is saved in pesos", async () => {
    const { deps, event, payments, request } = await cartWorld();
    await storePricingInDollars(deps.table, event.id);

    const stored = await deps.pricing.get(event.id);
    const quote = quoteCart(deps, request());
    const sale = createSale(deps, request(), origin);

    expect(stored).toMatchObject({ currency: "USD", basePrice: 5, configured: true });
    const refused = { kind: "invalid", message: salesMessages.currencyNotSupported };
    await expect(quote).rejects.toMatchObject(refused);
    await expect(sale).rejects.toMatchObject(refused);
    expect(payments.checkouts).toEqual([]);
    // Saved again (in pesos, the only currency the form sends), the event sells: 3 photos at 8.000.
    await saveEventPricing(deps, event.id, defaultEventPricing);
    expect(await createSale(deps, request(24_000), origin)).toMatchObject({ amount: 24_000 });
  });

  it("pays the sale once on a verified APPROVED event; a forged event is refused and a replay changes nothing", async () => {
    const { deps, clock, payments, request } = await cartWorld();
    const sale = await createSale(deps, request(), origin);
    const { event, transaction } = payments.pay(sale.reference, "APPROVED");
    const forged = { transaction: { ...transaction } };

    clock.advance(60_000);
    await receivePaymentEvent(deps, event, undefined);
    const paid = await deps.sales.get(sale.saleId);
    clock.advance(60_000);
    await receivePaymentEvent(deps, event, undefined);

    await expect(receivePaymentEvent(deps, forged, undefined)).rejects.toMatchObject({
      kind: "unauthenticated",
      message: salesMessages.webhookRefused,
    });
    expect(paid).toMatchObject({
      status: "paid",
      transactionId: transaction.id,
      paidAt: "2026-12-06T09:31:00.000Z",
      // 30 days, the system's validity when the event saved no pricing of its own.
      expiresAt: "2027-01-05T09:31:00.000Z",
    });
    expect(await deps.sales.get(sale.saleId)).toEqual(paid);
  });

  it("refuses a payment of another amount and leaves the sale pending", async () => {
    const { deps, payments, request } = await cartWorld();
    const sale = await createSale(deps, request(), origin);

    const { event } = payments.pay(sale.reference, "APPROVED", 100_000);

    await expect(receivePaymentEvent(deps, event, undefined)).rejects.toMatchObject({ kind: "invalid" });
    expect(await deps.sales.get(sale.saleId)).toMatchObject({ status: "pending", transactionId: null });
  });

  it("settles by lookup a sale whose event never came, once it is older than PAYMENT_RECONCILE_AFTER_SECONDS", async () => {
    const { deps, clock, payments, request } = await cartWorld();
    const sale = await createSale(deps, request(), origin);
    payments.pay(sale.reference, "DECLINED");

    const early = await reconcilePendingSales(deps);
    clock.advance(deps.config.PAYMENT_RECONCILE_AFTER_SECONDS * 1000 + 1);
    const due = await reconcilePendingSales(deps);

    expect(early).toEqual({ checked: 0, settled: 0, abandoned: 0 });
    expect(due).toEqual({ checked: 1, settled: 1, abandoned: 0 });
    expect(await deps.sales.get(sale.saleId)).toMatchObject({
      status: "declined",
      statusMessage: "Fondos insuficientes",
    });
  });
});
