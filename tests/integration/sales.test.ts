import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  type CartQuote,
  type CreateSaleResponse,
  type DashboardStats,
  type DownloadInfo,
  type DownloadZip,
  type EventDto,
  type EventPricingDto,
  pricingMessages,
  salesMessages,
} from "@dorsal/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDynalite } from "../../functions/local/storage";
import { createDynamoTable } from "../../functions/src/adapters/aws/dynamodb-table";
import type { WompiKeys } from "../../functions/src/adapters/payments/wompi";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { storePricingInDollars } from "../../functions/src/testing/legacy-pricing";
import { adminToken, apiClient, waitFor } from "../support/api";
import { chooseOnSandbox, returnToken, type SandboxTransaction, signedPaymentEvent } from "../support/payment-sandbox";
import { seedEventWithBibPhotos } from "../support/seed";
import { type RunningDorsal, startDorsal } from "../support/server";
import { readZip } from "../support/zip";

type ErrorBody = { success: false; error: string };

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * The money path through the embedded runtime and its Wompi sandbox, as a buyer's browser and
 * Wompi's servers would drive it: server-side price, signed checkout, the sandbox's buttons,
 * signed events, lookups, reconciliation and counted downloads of the originals.
 */
describe("sales", () => {
  let dorsal: RunningDorsal;
  let admin: ReturnType<typeof apiClient>;
  let visitor: ReturnType<typeof apiClient>;
  let keys: WompiKeys;
  let event: EventDto;
  let bibPhotos: string[];
  let loneId: string;
  let dataDir: string;
  // Reconciliation looks at sales pending for 4 s, every second, instead of 10 min / 1 min.
  const env = { PAYMENT_RECONCILE_AFTER_SECONDS: "4", PAYMENT_RECONCILE_EVERY_SECONDS: "1" };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-sales-"));
    dorsal = await startDorsal({ env, dataDir });
    admin = apiClient(dorsal.url, await adminToken(dorsal));
    visitor = apiClient(dorsal.url);
    keys = JSON.parse(await readFile(path.join(dorsal.dataDir, "keys", "wompi-sandbox.json"), "utf8")) as WompiKeys;
    const seeded = await seedEventWithBibPhotos(dorsal, await adminToken(dorsal), {
      name: "Carrera de las Rosas",
      bibs: ["5173", "5173", "42"],
    });
    event = seeded.event;
    bibPhotos = seeded.photoIdsByBib.get("5173") ?? [];
    loneId = seeded.photoIdsByBib.get("42")?.[0] ?? "";
  });
  afterAll(async () => {
    await dorsal?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const sale = async (photoIds: string[], extra: Record<string, unknown> = {}) => {
    const created = await visitor.post<CreateSaleResponse>("/api/sales/create", {
      eventId: event.id,
      photoIds,
      customerName: "Ana Gómez",
      customerEmail: "ana@example.co",
      ...extra,
    });
    expect(created.status).toBe(201);
    const paymentUrl = new URL(created.body.paymentUrl);
    const token = returnToken(paymentUrl);
    return { ...created.body, paymentUrl, token };
  };

  const choose = async (paymentUrl: URL, outcome: "APPROVED" | "DECLINED" | "PENDING") => {
    const response = await chooseOnSandbox(dorsal.url, paymentUrl, outcome);
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location") ?? "");
    return { location, transactionId: location.searchParams.get("id") ?? "" };
  };

  const info = (token: string, id?: string) =>
    visitor.get<DownloadInfo & ErrorBody>(`/api/sales/download/${token}${id ? `?id=${id}` : ""}`);
  const download = (token: string, photoId: string) =>
    fetch(new URL(`/api/sales/download/${token}/photos/${photoId}`, dorsal.url), { redirect: "manual" });
  const zip = (token: string) => visitor.post<DownloadZip & ErrorBody>(`/api/sales/download/${token}/zip`);
  const retry = (token: string, amount: number) =>
    visitor.post<CreateSaleResponse & ErrorBody>(`/api/sales/download/${token}/retry`, { amount });

  const sandboxApi = async <T>(method: string, route: string, body?: unknown) => {
    const response = await fetch(new URL(`/sandbox/wompi/v1${route}`, dorsal.url), {
      method,
      headers: { authorization: `Bearer ${keys.privateKey}`, "content-type": "application/json" },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: (await response.json()) as { data: T } };
  };

  /** A `transaction.updated` event as Wompi signs it (or with another secret, to forge one), signed now unless told. */
  const paymentEvent = (
    transaction: SandboxTransaction,
    { secret = keys.eventsSecret, signedAt = new Date() }: { secret?: string; signedAt?: Date } = {},
  ) => signedPaymentEvent(transaction, secret, signedAt);
  const deliver = (body: { signature: { checksum: string } }, checksum = body.signature.checksum) =>
    fetch(new URL("/api/payments/wompi/events", dorsal.url), {
      method: "POST",
      headers: { "content-type": "application/json", "x-event-checksum": checksum },
      body: JSON.stringify(body),
    });

  const monthlySales = async () => (await admin.get<DashboardStats>("/api/dashboard/stats")).body.monthlySales;
  /** Stops the runtime, does `whileStopped` to its data dir, and starts it again on the same data. */
  const restart = async (whileStopped?: () => Promise<void>) => {
    await dorsal.stop();
    await whileStopped?.();
    dorsal = await startDorsal({ env, dataDir });
    admin = apiClient(dorsal.url, await adminToken(dorsal));
    visitor = apiClient(dorsal.url);
  };
  const eventTiers = {
    basePrice: 12000,
    currency: "COP",
    tier2Photos: 2,
    tier2Price: 9000,
    tier3Photos: 3,
    tier3Price: 8000,
    tier4Photos: 5,
    tier4Price: 6000,
    volumeDiscountEnabled: true,
    downloadValidityDays: 10,
  };

  it("prices the cart on the server and refuses a checkout at a price the buyer did not see", async () => {
    const one = await visitor.post<CartQuote>("/api/sales/quote", { eventId: event.id, photoIds: [loneId] });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      eventId: event.id,
      count: 1,
      total: 15000,
      unitPrice: 15000,
      listTotal: 15000,
      rule: "perPhoto",
      currency: "COP",
    });
    const wrongEvent = await visitor.post<ErrorBody>("/api/sales/quote", { eventId: 9999, photoIds: [loneId] });
    expect(wrongEvent.status).toBe(404);
    const foreign = await visitor.post<ErrorBody>("/api/sales/quote", { eventId: event.id, photoIds: ["nope"] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toBe(salesMessages.photosNotOfEvent);

    const free = (await admin.post<EventDto>("/api/events", { name: "Gratis", date: "2026-12-01" })).body;
    await admin.post(`/api/events/${free.id}/enable-free-photos`);
    const refused = await visitor.post<ErrorBody>("/api/sales/quote", { eventId: free.id, photoIds: [loneId] });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(salesMessages.eventIsFree);

    const changed = await visitor.post<ErrorBody>("/api/sales/create", {
      eventId: event.id,
      photoIds: [loneId],
      customerName: "Ana Gómez",
      customerEmail: "ana@example.co",
      amount: 1000,
    });
    expect(changed.status).toBe(409);
    expect(changed.body.error).toBe(salesMessages.priceChanged);
  });

  it("signs the checkout with the integrity secret, and the sandbox refuses an altered one", async () => {
    const created = await sale([loneId], { amount: 15000 });
    expect(created.amount).toBe(15000);
    const params = created.paymentUrl.searchParams;
    expect(`${created.paymentUrl.origin}${created.paymentUrl.pathname}`).toBe(`${dorsal.url}/sandbox/wompi/p/`);
    expect(params.get("public-key")).toBe(keys.publicKey);
    expect(params.get("amount-in-cents")).toBe("1500000");
    expect(params.get("reference")).toBe(created.reference);
    expect(params.get("redirect-url")).toBe(`${dorsal.url}/download?token=${created.token}`);
    expect(created.token).toMatch(/^[\w-]{43}$/);
    expect(params.get("signature:integrity")).toBe(
      sha256(`${created.reference}1500000COP${params.get("expiration-time")}${keys.integritySecret}`),
    );

    const page = await fetch(created.paymentUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("$\u00a015.000");
    expect(html).toContain(created.reference);
    for (const label of ["Aprobar", "Rechazar", "Pendiente"]) expect(html).toContain(`>${label}</button>`);

    const altered = new URL(created.paymentUrl);
    altered.searchParams.set("amount-in-cents", "100");
    const refused = await fetch(altered);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("firma de integridad");
  });

  it("sells through 'Aprobar': the signed event pays the sale and the original downloads, counted", async () => {
    const before = await monthlySales();
    const created = await sale([loneId]);
    expect((await info(created.token)).body.status).toBe("pending");
    expect((await download(created.token, loneId)).status).toBe(403);

    const { location, transactionId } = await choose(created.paymentUrl, "APPROVED");
    expect(location.toString()).toBe(`${dorsal.url}/download?token=${created.token}&id=${transactionId}`);

    const paid = await info(created.token);
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({
      status: "paid",
      eventId: event.id,
      eventName: "Carrera de las Rosas",
      customerName: "Ana Gómez",
      reference: created.reference,
      amount: 15000,
      currency: "COP",
      paymentMethod: "CARD",
      statusMessage: null,
      photoIds: [loneId],
      maxDownloads: 3,
      remainingDownloads: 3,
    });
    expect(Date.now() - Date.parse(paid.body.paidAt ?? "")).toBeLessThan(60_000);
    expect(Date.parse(paid.body.expiresAt ?? "") - Date.now()).toBeGreaterThan(29 * 86400_000);
    const [photo] = paid.body.photos;
    expect(photo).toMatchObject({
      id: loneId,
      downloadUrl: `/api/sales/download/${created.token}/photos/${loneId}`,
      remainingDownloads: 3,
    });
    expect(photo?.webUrl).toBeTruthy();
    expect(photo?.thumbnailUrl).toBeTruthy();
    // Reading the page twice consumed nothing.
    expect((await info(created.token)).body.remainingDownloads).toBe(3);

    const redirect = await download(created.token, loneId);
    expect(redirect.status).toBe(302);
    const original = Buffer.from(await (await fetch(redirect.headers.get("location") ?? "")).arrayBuffer());
    // The seed made bib 42 as the third photo: 1200 + 2 × 8 px wide.
    expect(original.equals(await makeBibPhoto("42", { width: 1216, height: 900 }))).toBe(true);
    expect((await info(created.token)).body.remainingDownloads).toBe(2);
    expect(await monthlySales()).toBe(before + 15000);

    // Wompi redelivers the same event: acknowledged, counted once.
    const transaction = (await sandboxApi<SandboxTransaction>("GET", `/transactions/${transactionId}`)).body.data;
    expect(transaction).toMatchObject({ reference: created.reference, status: "APPROVED" });
    const again = paymentEvent(transaction);
    expect((await deliver(again)).status).toBe(200);
    expect((await deliver(again, again.signature.checksum.toUpperCase())).status).toBe(200);
    expect(await monthlySales()).toBe(before + 15000);

    expect((await download(created.token, bibPhotos[0] ?? "")).status).toBe(404);
    expect((await info("x".repeat(43))).status).toBe(404);
  });

  it("refuses the downloads of a payment declined with 'Rechazar', or voided later", async () => {
    const declined = await sale([loneId]);
    await choose(declined.paymentUrl, "DECLINED");
    const view = await info(declined.token);
    expect(view.body).toMatchObject({
      status: "declined",
      reference: declined.reference,
      amount: 15000,
      statusMessage: "Transacción rechazada (sandbox)",
      photoIds: [loneId],
      photos: [],
      remainingDownloads: 0,
    });
    const refused = await download(declined.token, loneId);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as ErrorBody).error).toBe(salesMessages.paymentDeclined);
    expect((await zip(declined.token)).status).toBe(403);

    const before = await monthlySales();
    const voided = await sale([loneId]);
    const { transactionId } = await choose(voided.paymentUrl, "APPROVED");
    expect(await monthlySales()).toBe(before + 15000);
    expect((await sandboxApi("POST", `/transactions/${transactionId}/settle`, { status: "VOIDED" })).status).toBe(200);
    expect((await info(voided.token)).body).toMatchObject({ status: "voided", photos: [] });
    expect((await download(voided.token, loneId)).status).toBe(403);
    expect(await monthlySales()).toBe(before);
  });

  it("downloads the paid originals as one ZIP that counts one download of each photo in it", async () => {
    const created = await sale(bibPhotos, { dorsalNumber: "5173" });
    expect((await zip(created.token)).status).toBe(403);
    await choose(created.paymentUrl, "APPROVED");

    const first = await zip(created.token);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      filename: "fotos-carrera-de-las-rosas-dorsal-5173.zip",
      photoCount: 2,
    });
    const file = await fetch(first.body.url);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toBe("attachment");
    expect(new URL(first.body.url).pathname).toMatch(
      /\/descargas\/\d{4}-\d{2}-\d{2}\/[\w-]{22}\/fotos-carrera-de-las-rosas-dorsal-5173\.zip$/,
    );
    const files = await readZip(Buffer.from(await file.arrayBuffer()));
    // The seed made bib 5173's photos first: 1200 and 1208 px wide, named bib-5173-0.jpg and -1.jpg.
    expect([...files.keys()].sort()).toEqual(["bib-5173-0.jpg", "bib-5173-1.jpg"]);
    expect(files.get("bib-5173-0.jpg")?.equals(await makeBibPhoto("5173", { width: 1200, height: 900 }))).toBe(true);
    expect(files.get("bib-5173-1.jpg")?.equals(await makeBibPhoto("5173", { width: 1208, height: 900 }))).toBe(true);
    const afterZip = (await info(created.token)).body;
    expect(afterZip.remainingDownloads).toBe(2);
    expect(afterZip.photos.map((photo) => photo.remainingDownloads)).toEqual([2, 2]);

    // One photo spent alone: the next ZIPs hold only the photo that still has downloads.
    const [spent, other] = afterZip.photos.map((photo) => photo.id) as [string, string];
    for (let i = 0; i < 2; i++) expect((await download(created.token, spent)).status).toBe(302);
    const onlyOther = await zip(created.token);
    expect(onlyOther.body.photoCount).toBe(1);
    const left = (await info(created.token)).body.photos;
    expect(Object.fromEntries(left.map((photo) => [photo.id, photo.remainingDownloads]))).toEqual({
      [spent]: 0,
      [other]: 1,
    });
    expect((await zip(created.token)).body.photoCount).toBe(1);
    const exhausted = await zip(created.token);
    expect(exhausted.status).toBe(403);
    expect(exhausted.body.error).toBe(salesMessages.downloadLimit);
    expect((await zip("x".repeat(43))).status).toBe(404);
  });

  it("keeps a declined payment's photos and retries it as a new checkout for the same photos", async () => {
    const declined = await sale(bibPhotos, { dorsalNumber: "5173" });
    await choose(declined.paymentUrl, "DECLINED");
    const changed = await retry(declined.token, 1000);
    expect(changed.status).toBe(409);
    expect(changed.body.error).toBe(salesMessages.priceChanged);

    const retried = await retry(declined.token, declined.amount);
    expect(retried.status).toBe(201);
    expect(retried.body.reference).not.toBe(declined.reference);
    expect(retried.body.amount).toBe(declined.amount);
    const checkout = new URL(retried.body.paymentUrl);
    expect(checkout.searchParams.get("amount-in-cents")).toBe(String(declined.amount * 100));
    expect(checkout.searchParams.get("customer-data:email")).toBe("ana@example.co");
    const token = returnToken(checkout);
    await choose(checkout, "APPROVED");
    const paid = (await info(token)).body;
    expect(paid).toMatchObject({ status: "paid", dorsalNumber: "5173", customerName: "Ana Gómez" });
    expect([...paid.photoIds].sort()).toEqual([...bibPhotos].sort());
    // The declined sale stays declined; a paid one is not paid twice.
    expect((await info(declined.token)).body.status).toBe("declined");
    const again = await retry(token, declined.amount);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(salesMessages.retryNotAllowed);
  });

  it("never pays on the redirect alone: a pending payment is looked up, and reconciled once it settles", async () => {
    const looked = await sale([loneId]);
    const { transactionId } = await choose(looked.paymentUrl, "PENDING");
    const pending = await info(looked.token, transactionId);
    expect(pending.body).toMatchObject({ status: "pending", photos: [] });
    const early = await download(looked.token, loneId);
    expect(early.status).toBe(403);
    expect(((await early.json()) as ErrorBody).error).toBe(salesMessages.paymentPending);
    // Somebody else's transaction id proves nothing about this sale.
    const other = await sale([loneId]);
    const approvedElsewhere = await choose(other.paymentUrl, "APPROVED");
    expect((await info(looked.token, approvedElsewhere.transactionId)).body.status).toBe("pending");
    // Settled without an event (lost): the lookup the redirect triggers finds it.
    await sandboxApi("POST", `/transactions/${transactionId}/settle`, { status: "APPROVED", notify: false });
    expect((await info(looked.token, transactionId)).body.status).toBe("paid");

    const reconciled = await sale([loneId]);
    const second = await choose(reconciled.paymentUrl, "PENDING");
    await sandboxApi("POST", `/transactions/${second.transactionId}/settle`, { status: "APPROVED", notify: false });
    await waitFor(
      async () => ((await info(reconciled.token)).body.status === "paid" ? true : undefined),
      20_000,
      "reconciliation to settle the sale",
    );
  });

  it("refuses forged and tampered payment events and changes nothing", async () => {
    const before = await monthlySales();
    const created = await sale([loneId]);
    const transaction = {
      id: "99999-1700000000-00001",
      reference: created.reference,
      amount_in_cents: 1500000,
      status: "APPROVED",
    };
    const forged = paymentEvent(transaction, { secret: "test_events_not-the-secret" });
    const forgedResponse = await deliver(forged);
    expect(forgedResponse.status).toBe(401);
    expect(((await forgedResponse.json()) as ErrorBody).error).toBe(salesMessages.webhookRefused);
    const genuine = paymentEvent(transaction);
    expect((await deliver(genuine, "0".repeat(64))).status).toBe(401);
    const edited = { ...genuine, data: { transaction: { ...genuine.data.transaction, amount_in_cents: 100 } } };
    expect((await deliver(edited)).status).toBe(401);
    // Correctly signed but for another amount: not this sale's payment.
    const cheap = paymentEvent({ ...transaction, amount_in_cents: 100 });
    expect((await deliver(cheap)).status).toBe(400);
    expect((await info(created.token)).body.status).toBe("pending");
    expect(await monthlySales()).toBe(before);
  });

  it("lets one approved transaction pay one sale: replayed onto another sale of the same amount, it pays nothing", async () => {
    const before = await monthlySales();
    const paid = await sale([loneId]);
    const { transactionId } = await choose(paid.paymentUrl, "APPROVED");
    expect((await info(paid.token)).body.status).toBe("paid");
    const transaction = (await sandboxApi<SandboxTransaction>("GET", `/transactions/${transactionId}`)).body.data;

    const other = await sale([loneId]);
    expect(other.amount).toBe(paid.amount);
    // Validly signed: Wompi's checksum covers the transaction's id, status and amount, not its reference.
    const replay = await deliver(paymentEvent({ ...transaction, reference: other.reference }));
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as ErrorBody).error).toBe(salesMessages.webhookRefused);
    expect((await info(other.token, transactionId)).body).toMatchObject({ status: "pending", photos: [] });
    expect((await download(other.token, loneId)).status).toBe(403);

    // The genuine event, redelivered, is still acknowledged and changes nothing.
    expect((await deliver(paymentEvent(transaction))).status).toBe(200);
    expect((await info(paid.token)).body.status).toBe("paid");
    expect(await monthlySales()).toBe(before + paid.amount);
  });

  it("refuses a signed event from long before Wompi's last retry, or from the future, and changes nothing", async () => {
    const before = await monthlySales();
    const created = await sale([loneId]);
    const transaction = {
      id: "99999-1700000000-00002",
      reference: created.reference,
      amount_in_cents: created.amount * 100,
      status: "APPROVED",
    };
    const ancient = await deliver(paymentEvent(transaction, { signedAt: new Date("2001-03-14T15:00:00.000Z") }));
    expect(ancient.status).toBe(401);
    expect(((await ancient.json()) as ErrorBody).error).toBe(salesMessages.webhookRefused);
    const ahead = await deliver(paymentEvent(transaction, { signedAt: new Date(Date.now() + 3600_000) }));
    expect(ahead.status).toBe(401);
    expect((await info(created.token)).body.status).toBe("pending");
    expect(await monthlySales()).toBe(before);
  });

  it("still pays on an event delivered by Wompi's last retry, 28 h after it was signed", async () => {
    const created = await sale([loneId]);
    const transaction = {
      id: "99999-1700000000-00003",
      reference: created.reference,
      amount_in_cents: created.amount * 100,
      status: "APPROVED",
    };
    const retried = await deliver(paymentEvent(transaction, { signedAt: new Date(Date.now() - 28 * 3600_000) }));
    expect(retried.status).toBe(200);
    expect((await info(created.token)).body.status).toBe("paid");
  });

  it("lets 20 parallel downloads of a 3-download link through exactly 3 times", async () => {
    const created = await sale([bibPhotos[0] ?? ""]);
    await choose(created.paymentUrl, "APPROVED");
    const results = await Promise.all(Array.from({ length: 20 }, () => download(created.token, bibPhotos[0] ?? "")));
    const statuses = results.map((response) => response.status);
    expect(statuses.filter((status) => status === 302)).toHaveLength(3);
    expect(statuses.filter((status) => status === 403)).toHaveLength(17);
    const refusals = results.filter((response) => response.status === 403);
    for (const refusal of refusals) {
      expect(((await refusal.json()) as ErrorBody).error).toBe(salesMessages.downloadLimit);
    }
    expect((await info(created.token)).body.remainingDownloads).toBe(0);
  });

  it("prices with the event's own tiers when saved, and bundles a bib's photos otherwise", async () => {
    const allOfBib = await visitor.post<CartQuote>("/api/sales/quote", {
      eventId: event.id,
      photoIds: bibPhotos,
      dorsalNumber: "5173",
    });
    // Two photos at 15000 cost less than the 50000 bundle: the buyer pays the lower.
    expect(allOfBib.body).toMatchObject({ count: 2, total: 30000, rule: "perPhoto" });
    expect((await admin.post(`/api/events/${event.id}/pricing`, eventTiers)).status).toBe(200);
    const tiered = await visitor.post<CartQuote>("/api/sales/quote", { eventId: event.id, photoIds: bibPhotos });
    expect(tiered.body).toMatchObject({
      count: 2,
      total: 18000,
      unitPrice: 9000,
      listTotal: 24000,
      rule: "eventPricing",
    });
    const created = await sale(bibPhotos, { amount: 18000 });
    await choose(created.paymentUrl, "APPROVED");
    const paid = await info(created.token);
    const validity = Date.parse(paid.body.expiresAt ?? "") - Date.now();
    expect(validity).toBeGreaterThan(9.9 * 86400_000);
    expect(validity).toBeLessThanOrEqual(10 * 86400_000);
  });

  it("takes prices in pesos only, and sells nothing of an event whose pricing was stored in dollars before", async () => {
    const cart = { eventId: event.id, photoIds: bibPhotos };
    const dollars = { ...eventTiers, basePrice: 12, tier2Price: 9, tier3Price: 8, tier4Price: 6, currency: "USD" };
    const refused = await admin.post<ErrorBody>(`/api/events/${event.id}/pricing`, dollars);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(pricingMessages.currency);
    expect((await visitor.get<EventPricingDto>(`/api/events/${event.id}/pricing`)).body).toMatchObject(eventTiers);

    // An earlier save could store dollars; the API no longer does, so the item goes straight into the table.
    await restart(async () => {
      const dynamo = await startDynalite(dataDir);
      try {
        await storePricingInDollars(createDynamoTable(dynamo.send, "dorsal"), event.id);
      } finally {
        await dynamo.close();
      }
    });
    const stored = await visitor.get<EventPricingDto>(`/api/events/${event.id}/pricing`);
    expect(stored.body).toMatchObject({ currency: "USD", basePrice: 5, tier4Price: 3.75, configured: true });
    const quote = await visitor.post<ErrorBody>("/api/sales/quote", cart);
    const checkout = await visitor.post<ErrorBody>("/api/sales/create", {
      ...cart,
      customerName: "Ana Gómez",
      customerEmail: "ana@example.co",
    });
    for (const answer of [quote, checkout]) {
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe(salesMessages.currencyNotSupported);
    }

    // Saved again in pesos, the event sells.
    expect((await admin.post(`/api/events/${event.id}/pricing`, eventTiers)).status).toBe(200);
    expect((await visitor.post<CartQuote>("/api/sales/quote", cart)).body).toMatchObject({
      total: 18000,
      rule: "eventPricing",
    });
  });

  it("lists an event's sales for the admin, without the download tokens", async () => {
    const listed = await admin.get<{ sales: Record<string, unknown>[]; nextCursor: string | null }>(
      `/api/admin/sales?eventId=${event.id}`,
    );
    expect(listed.status).toBe(200);
    expect(listed.body.sales.length).toBeGreaterThanOrEqual(8);
    expect(new Set(listed.body.sales.map((sale) => sale.status))).toEqual(
      new Set(["pending", "paid", "declined", "voided"]),
    );
    expect(JSON.stringify(listed.body)).not.toContain("tokenHash");
    expect((await visitor.get(`/api/admin/sales?eventId=${event.id}`)).status).toBe(401);
  });

  it("finds a sale by buyer or reference with its downloads left, and gives a lost link anew", async () => {
    const paid = await sale([loneId], { customerName: "Lucía Ríos", customerEmail: "Lucia.Rios@example.co" });
    await choose(paid.paymentUrl, "APPROVED");
    const downloaded = await fetch(new URL(`/api/sales/download/${paid.token}/photos/${loneId}`, dorsal.url), {
      redirect: "manual",
    });
    expect(downloaded.status).toBe(302);
    const pending = await sale([loneId], { customerName: "Lucía Ríos", customerEmail: "lucia.rios@example.co" });

    type Listed = { sales: { id: string; reference: string; downloadsLeft: number | null }[] };
    const byEmail = await admin.get<Listed>(`/api/admin/sales?eventId=${event.id}&q=LUCIA.RIOS`);
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.sales.map(({ id, downloadsLeft }) => ({ id, downloadsLeft }))).toEqual([
      { id: paid.saleId, downloadsLeft: 2 },
      { id: pending.saleId, downloadsLeft: null },
    ]);
    const byReference = await admin.get<Listed>(
      `/api/admin/sales?eventId=${event.id}&q=${paid.reference.slice(-12).toLowerCase()}`,
    );
    expect(byReference.body.sales.map((found) => found.id)).toEqual([paid.saleId]);

    const link = (saleId: string, client = admin) =>
      client.post<{ downloadUrl: string; expiresAt: string | null; error?: string }>(
        `/api/admin/sales/${saleId}/link`,
        {},
      );
    expect((await link(paid.saleId, visitor)).status).toBe(401);
    const refused = await link(pending.saleId);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(salesMessages.linkOnlyForPaid);

    const renewed = await link(paid.saleId);
    expect(renewed.status).toBe(200);
    const newToken = new URL(renewed.body.downloadUrl).searchParams.get("token") ?? "";
    expect(newToken).not.toBe(paid.token);
    expect(new URL(renewed.body.downloadUrl).origin).toBe(new URL(dorsal.url).origin);
    // The old link stops at once; the new one opens the same purchase with what is left of it.
    const old = await info(paid.token);
    expect(old.status).toBe(404);
    expect((await info(newToken)).body).toMatchObject({
      status: "paid",
      reference: paid.reference,
      remainingDownloads: 2,
    });
  });

  it("keeps the sandbox's keys and transactions, and the sales, across a restart", async () => {
    const created = await sale([loneId]);
    const { transactionId } = await choose(created.paymentUrl, "APPROVED");
    await restart();
    expect(JSON.parse(await readFile(path.join(dataDir, "keys", "wompi-sandbox.json"), "utf8"))).toEqual(keys);
    const kept = await sandboxApi<SandboxTransaction>("GET", `/transactions/${transactionId}`);
    expect(kept.body.data).toMatchObject({ reference: created.reference, status: "APPROVED" });
    expect((await info(created.token)).body).toMatchObject({ status: "paid", remainingDownloads: 3 });
  });

  it("counts the month's sales from the admin's reset on", async () => {
    expect(await monthlySales()).toBeGreaterThan(0);
    expect((await admin.post("/api/admin/reset-sales")).status).toBe(200);
    expect(await monthlySales()).toBe(0);
    const created = await sale([loneId]);
    await choose(created.paymentUrl, "APPROVED");
    expect(await monthlySales()).toBe(created.amount);
  });
});
