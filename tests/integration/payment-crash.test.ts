import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AdminSalePage, CreateSaleResponse, DashboardStats } from "@dorsal/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WompiKeys } from "../../functions/src/adapters/payments/wompi";
import { adminToken, apiClient } from "../support/api";
import { chooseOnSandbox, signedPaymentEvent } from "../support/payment-sandbox";
import { seedEventWithBibPhotos } from "../support/seed";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * A payment whose process dies between making the sale paid and counting it in its month (two
 * writes: dynalite has no transactions; on AWS a stopped Lambda): after the restart the sale is
 * paid, the dashboard's month counts it once, and the payment's event delivered again changes
 * nothing.
 */
describe("a payment across a crash", () => {
  let dataDir: string;
  let dorsal: RunningDorsal | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-payment-crash-"));
  });
  afterAll(async () => {
    await dorsal?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("ends with the sale paid and counted once", { timeout: 240_000 }, async () => {
    dorsal = await startDorsal({ dataDir, env: { FAULT_KILL_AT: "sale-paid" } });
    const token = await adminToken(dorsal);
    const { event, photoIdsByBib } = await seedEventWithBibPhotos(dorsal, token, {
      name: "Carrera interrumpida",
      bibs: ["5173"],
    });
    const visitor = apiClient(dorsal.url);
    const created = await visitor.post<CreateSaleResponse>("/api/sales/create", {
      eventId: event.id,
      dorsalNumber: "5173",
      photoIds: photoIdsByBib.get("5173"),
      customerName: "Ana Gómez",
      customerEmail: "ana.gomez@example.co",
    });
    expect(created.status).toBe(201);

    // The sandbox settles the sale with our webhook, in this process: it dies right after the paid write.
    const crashed = dorsal.crash();
    await chooseOnSandbox(dorsal.url, new URL(created.body.paymentUrl), "APPROVED").catch(() => undefined);
    expect(await crashed).toBe("SIGKILL");

    dorsal = await startDorsal({ dataDir });
    const admin = apiClient(dorsal.url, await adminToken(dorsal));
    const sales = (await admin.get<AdminSalePage>(`/api/admin/sales?eventId=${event.id}`)).body.sales;
    expect(sales).toHaveLength(1);
    const [sale] = sales;
    expect(sale).toMatchObject({ reference: created.body.reference, status: "paid", amount: created.body.amount });
    await dorsal.printed(/sales figures recounted/);
    const monthlySales = async () => (await admin.get<DashboardStats>("/api/dashboard/stats")).body.monthlySales;
    expect(await monthlySales()).toBe(created.body.amount);

    // Wompi retries an event it got no answer for: the same payment, delivered again, counts nothing more.
    const keys = JSON.parse(await readFile(path.join(dataDir, "keys", "wompi-sandbox.json"), "utf8")) as WompiKeys;
    const again = signedPaymentEvent(
      {
        id: sale?.transactionId ?? "",
        reference: created.body.reference,
        amount_in_cents: created.body.amount * 100,
        status: "APPROVED",
      },
      keys.eventsSecret,
    );
    const delivered = await fetch(new URL("/api/payments/wompi/events", dorsal.url), {
      method: "POST",
      headers: { "content-type": "application/json", "x-event-checksum": again.signature.checksum },
      body: JSON.stringify(again),
    });
    expect(delivered.status).toBe(200);
    expect(await monthlySales()).toBe(created.body.amount);
    expect((await admin.get<AdminSalePage>(`/api/admin/sales?eventId=${event.id}`)).body.sales).toMatchObject([
      { status: "paid" },
    ]);
  });
});
