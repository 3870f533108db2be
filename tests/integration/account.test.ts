import type { DownloadInfo, EventDto, OutboxMessage, OutboxPage, PublicUser } from "@dorsal/shared";
import type { AccountCode, AccountPurchasePage, AccountSentLink } from "@dorsal/shared/account";
import { accountMessages } from "@dorsal/shared/account";
import { beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiClient } from "../support/api";
import { chooseOnSandbox, startCheckout } from "../support/payment-sandbox";
import { seedEventWithBibPhotos } from "../support/seed";
import { sharedDorsal } from "../support/server";

type ErrorBody = { success: false; error: string };
type Client = ReturnType<typeof apiClient>;

/**
 * 'Tu cuenta' through the embedded runtime: an account lists what was bought with its email only
 * once its owner opened the verification link sent there; one that registered someone else's
 * address sees nothing, and no account reaches another's purchases.
 */
describe("account: email verification, purchases and codes", () => {
  const dorsal = sharedDorsal();
  const run = Date.now().toString(36);
  const anaEmail = `ana-${run}@example.com`;
  const victimEmail = `victima-${run}@example.com`;
  let admin: Client;
  let event: EventDto;
  let ana: Client;
  let anaId: string;
  let saleId: string;
  let returnPageToken: string;

  /** The newest outbox message to `to` whose subject starts with `subject`, read through the admin's outbox. */
  async function lastMail(to: string, subject: string): Promise<OutboxMessage | undefined> {
    const page = await admin.get<OutboxPage>("/api/admin/outbox?limit=100");
    const entry = page.body.messages.find((message) => message.to === to && message.subject.startsWith(subject));
    return entry && (await admin.get<OutboxMessage>(`/api/admin/outbox/${entry.id}`)).body;
  }
  const linkIn = (mail: OutboxMessage | undefined, pattern: RegExp) => pattern.exec(mail?.text ?? "")?.[1] ?? "";

  async function register(email: string): Promise<{ client: Client; user: PublicUser }> {
    const created = await apiClient(dorsal.url).post<{ token: string; user: PublicUser }>(
      "/api/auth/athlete-register",
      {
        name: "Ana Gómez",
        email,
        password: "secreto12",
      },
    );
    expect(created.status).toBe(201);
    return { client: apiClient(dorsal.url, created.body.token), user: created.body.user };
  }

  /** A sale paid in the sandbox with `customerEmail`; its return-page token. */
  async function paidSale(photoId: string, customerEmail: string): Promise<{ saleId: string; token: string }> {
    const { paymentUrl, token, reference } = await startCheckout(dorsal.url, {
      eventId: event.id,
      photoIds: [photoId],
      customerEmail,
    });
    const back = new URL((await chooseOnSandbox(dorsal.url, paymentUrl, "APPROVED")).headers.get("location") ?? "");
    const info = await apiClient(dorsal.url).get<DownloadInfo>(
      `/api/sales/download/${token}?id=${back.searchParams.get("id")}`,
    );
    expect(info.body.status).toBe("paid");
    return { saleId: reference.replace(/^DOR-/, ""), token };
  }

  beforeAll(async () => {
    const token = await adminToken(dorsal);
    admin = apiClient(dorsal.url, token);
    const seeded = await seedEventWithBibPhotos(dorsal, token, { name: `Cuenta ${run}`, bibs: ["7301"] });
    event = seeded.event;
    const photoId = seeded.photoIdsByBib.get("7301")?.[0] ?? "";
    // Bought as a guest before any account existed, with the address in another case.
    ({ saleId, token: returnPageToken } = await paidSale(photoId, anaEmail.toUpperCase()));
    // A checkout never paid: never listed.
    await startCheckout(dorsal.url, { eventId: event.id, photoIds: [photoId], customerEmail: anaEmail });
    await paidSale(photoId, victimEmail);
  }, 240_000);

  it("emails a single-use verification link on registration; unverified, the lists are a 403", async () => {
    const registered = await register(anaEmail);
    ana = registered.client;
    anaId = registered.user.id;
    expect(registered.user.emailVerifiedAt).toBeNull();
    const mail = await lastMail(anaEmail, "Confirma tu correo");
    const token = linkIn(mail, /\/verify-email\?token=(\S+)/);
    expect(token.startsWith(`${anaId}.`)).toBe(true);

    for (const path of ["/api/account/purchases", "/api/account/codes"]) {
      const refused = await ana.get<ErrorBody>(path);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe(accountMessages.notVerified);
      expect((await apiClient(dorsal.url).get(path)).status).toBe(401);
    }
    expect((await ana.post(`/api/account/purchases/${saleId}/link`)).status).toBe(403);
    const tooSoon = await ana.post<ErrorBody>("/api/account/verification");
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body.error).toBe(accountMessages.verificationTooSoon);

    const forged = await apiClient(dorsal.url).post<ErrorBody>("/api/account/verify-email", {
      token: `${anaId}.${"x".repeat(43)}`,
    });
    expect(forged.status).toBe(400);
    expect(forged.body.error).toBe(accountMessages.verificationInvalid);
    expect((await apiClient(dorsal.url).post("/api/account/verify-email", { token })).status).toBe(200);
    expect((await apiClient(dorsal.url).post("/api/account/verify-email", { token })).status).toBe(400);
    expect((await ana.get<{ user: PublicUser }>("/api/auth/me")).body.user.emailVerifiedAt).not.toBeNull();
    expect((await ana.post("/api/account/verification")).status).toBe(409);
  });

  it("lists the paid purchases of the verified email and emails a fresh link whose downloads count", async () => {
    const page = await ana.get<AccountPurchasePage>("/api/account/purchases");
    expect(page.status).toBe(200);
    expect(page.body.purchases).toHaveLength(1);
    const [purchase] = page.body.purchases;
    expect(purchase).toMatchObject({
      id: saleId,
      eventName: event.name,
      photoCount: 1,
      amount: 15000,
      expired: false,
    });
    expect(purchase?.downloadsLeft).toBe(purchase?.maxDownloads);

    const sent = await ana.post<AccountSentLink>(`/api/account/purchases/${saleId}/link`);
    expect(sent.body).toEqual({ to: anaEmail, sent: true });
    const token = linkIn(await lastMail(anaEmail, "Tu enlace para descargar"), /\/download\?token=(\S+)/);
    expect(token).not.toBe("");
    // The older link stops working, as with the admin's new link.
    expect((await apiClient(dorsal.url).get(`/api/sales/download/${returnPageToken}`)).status).not.toBe(200);
    const info = await apiClient(dorsal.url).get<DownloadInfo>(`/api/sales/download/${token}`);
    const photoId = info.body.photoIds[0] ?? "";
    const download = () =>
      fetch(new URL(`/api/sales/download/${token}/photos/${photoId}`, dorsal.url), { redirect: "manual" });
    for (let i = 0; i < (purchase?.maxDownloads ?? 0); i++) expect((await download()).status).toBe(302);
    expect((await download()).status).toBe(403);
    const after = await ana.get<AccountPurchasePage>("/api/account/purchases");
    expect(after.body.purchases[0]?.downloadsLeft).toBe(0);
  });

  it("lists the download codes an admin emailed to the address", async () => {
    expect((await ana.get<{ codes: AccountCode[] }>("/api/account/codes")).body.codes).toEqual([]);
    const issued = await admin.post<{ code: string }>("/api/admin/generate-download-code", {
      eventId: event.id,
      dorsalNumber: "7301",
      maxDownloads: 3,
      email: anaEmail,
    });
    expect(issued.status).toBe(201);
    const codes = await ana.get<{ codes: AccountCode[] }>("/api/account/codes");
    expect(codes.body.codes).toEqual([
      expect.objectContaining({
        code: issued.body.code,
        dorsalNumber: "7301",
        eventName: event.name,
        remainingDownloads: 3,
        expired: false,
      }),
    ]);
  });

  it("shows nothing to an account that registered someone else's email, nor another account's sale", async () => {
    const squatter = (await register(victimEmail)).client;
    expect((await squatter.get("/api/account/purchases")).status).toBe(403);

    const other = await register(`otra-${run}@example.com`);
    const token = linkIn(
      await lastMail(`otra-${run}@example.com`, "Confirma tu correo"),
      /\/verify-email\?token=(\S+)/,
    );
    expect((await apiClient(dorsal.url).post("/api/account/verify-email", { token })).status).toBe(200);
    expect((await other.client.get<AccountPurchasePage>("/api/account/purchases")).body.purchases).toEqual([]);
    expect((await other.client.get<{ codes: AccountCode[] }>("/api/account/codes")).body.codes).toEqual([]);
    const foreign = await other.client.post<ErrorBody>(`/api/account/purchases/${saleId}/link`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe(accountMessages.purchaseNotFound);
  });

  it("takes the verification away when the account's email changes", async () => {
    const changed = await admin.put(`/api/users/${anaId}`, {
      name: "Ana Gómez",
      email: `ana-nueva-${run}@example.com`,
      role: "athlete",
    });
    expect(changed.status).toBe(200);
    const me = await ana.get<{ user: PublicUser }>("/api/auth/me");
    expect(me.body.user.emailVerifiedAt).toBeNull();
    expect((await ana.get("/api/account/purchases")).status).toBe(403);
  });
});
