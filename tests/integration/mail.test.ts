import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  type AdminSaleLink,
  type DownloadCodeResult,
  type DownloadInfo,
  type EventDto,
  mailMessages,
  type OutboxMessage,
  type OutboxPage,
  type PublicUser,
} from "@dorsal/shared";
import type {
  ApprovedApplicationResponse,
  PhotographerApplicationCreated,
  RejectedApplicationResponse,
} from "@dorsal/shared/applications";
import PostalMime from "postal-mime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WompiKeys } from "../../functions/src/adapters/payments/wompi";
import { adminToken, apiClient, waitFor } from "../support/api";
import { sampleApplication } from "../support/applications";
import {
  chooseOnSandbox,
  type SandboxTransaction,
  signedPaymentEvent,
  startCheckout,
} from "../support/payment-sandbox";
import { seedEventWithBibPhotos, uploadBibPhotos } from "../support/seed";
import { type RunningDorsal, startDorsal } from "../support/server";

type ErrorBody = { success: false; error: string };

/**
 * Email through the embedded runtime (issue 22 item 4): each message is one .eml file in
 * DATA_DIR/outbox, read here as a mail program would (postal-mime decodes it), and through the
 * admin's outbox API. Its own runtime: it reads the outbox folder and the process's output.
 */
describe("email", () => {
  let dorsal: RunningDorsal;
  let admin: ReturnType<typeof apiClient>;
  let visitor: ReturnType<typeof apiClient>;
  let keys: WompiKeys;
  let event: EventDto;
  let photoId: string;
  /** Every download token this suite saw: none may ever reach a log line. */
  const tokens = new Set<string>();
  const outboxDir = () => path.join(dorsal.dataDir, "outbox");
  // Reconciliation looks at sales pending for 2 s, every second, instead of 10 min / 1 min.
  // 'Avísame' messages go 3 s after a bib's last photo, looked for every second (instead of 10 min / 1 min).
  const env = {
    PAYMENT_RECONCILE_AFTER_SECONDS: "2",
    PAYMENT_RECONCILE_EVERY_SECONDS: "1",
    NOTIFY_QUIET_SECONDS: "3",
    NOTIFY_SWEEP_EVERY_SECONDS: "1",
  };

  beforeAll(async () => {
    dorsal = await startDorsal({ env });
    admin = apiClient(dorsal.url, await adminToken(dorsal));
    visitor = apiClient(dorsal.url);
    keys = JSON.parse(await readFile(path.join(dorsal.dataDir, "keys", "wompi-sandbox.json"), "utf8")) as WompiKeys;
    const seeded = await seedEventWithBibPhotos(dorsal, await adminToken(dorsal), {
      name: "Media Maratón de Medellín",
      bibs: ["5173"],
    });
    event = seeded.event;
    photoId = seeded.photoIdsByBib.get("5173")?.[0] ?? "";
  });
  afterAll(async () => {
    await dorsal?.stop();
  });

  /** The outbox's files, oldest first, each decoded as a mail program reads it. */
  const outbox = async () => {
    const names = (await readdir(outboxDir()).catch(() => [] as string[])).filter((name) => name.endsWith(".eml"));
    return Promise.all(
      names
        .sort()
        .map(async (name) => ({ name, ...(await PostalMime.parse(await readFile(path.join(outboxDir(), name)))) })),
    );
  };
  const to = async (address: string) =>
    (await outbox()).filter((mail) => mail.to?.[0]?.address?.toLowerCase() === address.toLowerCase());
  const linkIn = (text: string | undefined) => {
    const link = /https?:\/\/\S+\/download\?token=([\w-]+)/.exec(text ?? "");
    if (!link?.[1]) throw new Error(`no download link in ${text}`);
    tokens.add(link[1]);
    return { url: link[0], token: link[1] };
  };

  const sale = async (customerEmail: string) => {
    const started = await startCheckout(dorsal.url, {
      eventId: event.id,
      dorsalNumber: "5173",
      photoIds: [photoId],
      customerEmail,
    });
    tokens.add(started.token);
    return started;
  };
  const choose = async (paymentUrl: URL, outcome: "APPROVED" | "DECLINED" | "PENDING") => {
    const response = await chooseOnSandbox(dorsal.url, paymentUrl, outcome);
    expect(response.status).toBe(302);
    return new URL(response.headers.get("location") ?? "").searchParams.get("id") ?? "";
  };
  const info = (token: string) => visitor.get<DownloadInfo & ErrorBody>(`/api/sales/download/${token}`);
  const download = (token: string) =>
    fetch(new URL(`/api/sales/download/${token}/photos/${photoId}`, dorsal.url), { redirect: "manual" });
  const sandboxApi = async <T>(method: string, route: string, body?: unknown) => {
    const response = await fetch(new URL(`/sandbox/wompi/v1${route}`, dorsal.url), {
      method,
      headers: { authorization: `Bearer ${keys.privateKey}`, "content-type": "application/json" },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return (await response.json()) as { data: T };
  };
  const deliver = (body: { signature: { checksum: string } }) =>
    fetch(new URL("/api/payments/wompi/events", dorsal.url), {
      method: "POST",
      headers: { "content-type": "application/json", "x-event-checksum": body.signature.checksum },
      body: JSON.stringify(body),
    });

  it("emails the buyer once when the sale is paid: a second link that opens it beside the return page's", async () => {
    const paid = await sale("ana.gomez@example.co");
    const transactionId = await choose(paid.paymentUrl, "APPROVED");

    const [mail, ...more] = await to("ana.gomez@example.co");
    expect(more).toEqual([]);
    expect(mail?.subject).toBe("Tus fotos de Media Maratón de Medellín están listas");
    expect(mail?.from).toMatchObject({ name: "Dorsal", address: "no-responder@dorsal.local" });
    expect(mail?.text).toContain("Hola Ana Gómez:");
    expect(mail?.text).toContain("$ 15.000 COP");
    expect(mail?.text).toContain(paid.reference);
    expect(mail?.text).toContain("tu foto de Media Maratón de Medellín (dorsal 5173)");
    const emailed = linkIn(mail?.text);
    expect(emailed.url).toBe(`${dorsal.url}/download?token=${emailed.token}`);
    expect(emailed.token).toMatch(/^[\w-]{43}$/);
    expect(emailed.token).not.toBe(paid.token);
    expect(mail?.html).toContain(`<a href="${emailed.url}">`);

    // Both links open the sale; the downloads they spend are the sale's, capped once for both.
    expect((await info(emailed.token)).body).toMatchObject({ status: "paid", reference: paid.reference });
    expect((await info(paid.token)).body).toMatchObject({ status: "paid", reference: paid.reference });
    expect((await download(emailed.token)).status).toBe(302);
    expect((await download(paid.token)).status).toBe(302);
    expect((await info(emailed.token)).body.remainingDownloads).toBe(1);
    expect((await download(emailed.token)).status).toBe(302);
    expect((await download(paid.token)).status).toBe(403);

    // Wompi redelivers the event, and the buyer's page looks the transaction up: nothing more is sent.
    const transaction = (await sandboxApi<SandboxTransaction>("GET", `/transactions/${transactionId}`)).data;
    expect((await deliver(signedPaymentEvent(transaction, keys.eventsSecret))).status).toBe(200);
    expect((await visitor.get(`/api/sales/download/${paid.token}?id=${transactionId}`)).status).toBe(200);
    expect(await to("ana.gomez@example.co")).toHaveLength(1);
  });

  it("sends nothing for a declined payment, and once for a payment only reconciliation settles", async () => {
    const declined = await sale("rechazada@example.co");
    await choose(declined.paymentUrl, "DECLINED");
    expect((await info(declined.token)).body.status).toBe("declined");
    expect(await to("rechazada@example.co")).toEqual([]);

    const late = await sale("tarde@example.co");
    const transactionId = await choose(late.paymentUrl, "PENDING");
    await sandboxApi("POST", `/transactions/${transactionId}/settle`, { status: "APPROVED", notify: false });
    await waitFor(
      async () => ((await info(late.token)).body.status === "paid" ? true : undefined),
      20_000,
      "reconciliation to settle the sale",
    );
    // More reconciliation runs pass; still one email.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const mails = await to("tarde@example.co");
    expect(mails).toHaveLength(1);
    expect((await info(linkIn(mails[0]?.text).token)).body.status).toBe("paid");
  });

  it("emails the admin's new link on request: every older link stops, the emailed one opens the sale", async () => {
    const paid = await sale("lucia.rios@example.co");
    await choose(paid.paymentUrl, "APPROVED");
    const firstEmailed = linkIn((await to("lucia.rios@example.co"))[0]?.text);

    const renewed = await admin.post<AdminSaleLink>(`/api/admin/sales/${paid.saleId}/link`, { sendEmail: true });
    expect(renewed.status).toBe(200);
    expect(renewed.body.mail).toEqual({ to: "lucia.rios@example.co", sent: true });
    const mails = await to("lucia.rios@example.co");
    expect(mails).toHaveLength(2);
    expect(mails[1]?.subject).toBe("Nuevo enlace para descargar tus fotos de Media Maratón de Medellín");
    const emailed = linkIn(mails[1]?.text);
    expect(renewed.body.downloadUrl).toBe(emailed.url);

    for (const old of [paid.token, firstEmailed.token]) expect((await info(old)).status).toBe(404);
    expect((await info(emailed.token)).body).toMatchObject({ status: "paid", reference: paid.reference });
    expect((await download(emailed.token)).status).toBe(302);

    // Without the option nothing is sent, and the link before it stops too.
    const copied = await admin.post<AdminSaleLink>(`/api/admin/sales/${paid.saleId}/link`, {});
    expect(copied.body.mail).toBeNull();
    tokens.add(new URL(copied.body.downloadUrl).searchParams.get("token") ?? "");
    expect(await to("lucia.rios@example.co")).toHaveLength(2);
    expect((await info(emailed.token)).status).toBe(404);
  });

  it("tells applicants the admin's decision: approved without the password, rejected with the notes", async () => {
    const submit = async (email: string, fullName: string) =>
      (
        await visitor.post<PhotographerApplicationCreated>("/api/photographer-applications", {
          ...sampleApplication,
          email,
          fullName,
        })
      ).body.id;
    const approvedId = await submit("Laura.Correo@Fotos.test", "Laura Gómez");
    const rejectedId = await submit("pedro.correo@fotos.test", "Pedro Ruiz");

    const approved = await admin.post<ApprovedApplicationResponse>(
      `/api/admin/photographer-applications/${approvedId}/approve`,
      { eventId: event.id },
    );
    expect(approved.status).toBe(200);
    expect(approved.body.mail).toEqual({ to: "laura.correo@fotos.test", sent: true });
    const [welcome] = await to("laura.correo@fotos.test");
    expect(welcome?.subject).toBe("Tu solicitud de fotógrafo en Dorsal fue aprobada");
    expect(welcome?.text).toContain("Evento asignado: Media Maratón de Medellín.");
    expect(welcome?.text).toContain(`${dorsal.url}/photographer-login`);
    expect(welcome?.text).not.toContain(approved.body.credentials.password);

    const rejected = await admin.post<RejectedApplicationResponse>(
      `/api/admin/photographer-applications/${rejectedId}/reject`,
      { adminNotes: "Necesitamos un portafolio de carreras de ruta." },
    );
    expect(rejected.body).toMatchObject({ status: "rejected", mail: { to: "pedro.correo@fotos.test", sent: true } });
    const [decision] = await to("pedro.correo@fotos.test");
    expect(decision?.subject).toBe("Tu solicitud de fotógrafo en Dorsal");
    expect(decision?.text).toContain("Notas del organizador:\nNecesitamos un portafolio de carreras de ruta.");
  });

  it("emails a download code's chat message to the address the admin gives, and nothing without one", async () => {
    const request = { eventId: event.id, dorsalNumber: "5173", expiresInDays: 7, maxDownloads: 3 };
    const emailed = await admin.post<DownloadCodeResult>("/api/admin/generate-download-code", {
      ...request,
      email: " Pago.Nequi@Example.co ",
    });
    expect(emailed.status).toBe(201);
    expect(emailed.body.mail).toEqual({ to: "Pago.Nequi@Example.co", sent: true });
    const [mail] = await to("Pago.Nequi@Example.co");
    expect(mail?.subject).toBe("Tu código de descarga para las fotos de Media Maratón de Medellín");
    expect(mail?.text).toContain(`Tu código de descarga: ${emailed.body.code}`);
    expect(mail?.text).toContain("Dorsal: 5173");
    expect(mail?.text).toContain(`${dorsal.url}/search`);

    const before = (await outbox()).length;
    const silent = await admin.post<DownloadCodeResult>("/api/admin/generate-download-code", { ...request, email: "" });
    expect(silent.status).toBe(201);
    expect(silent.body.mail).toBeNull();
    expect(await outbox()).toHaveLength(before);
    const bad = await admin.post<ErrorBody>("/api/admin/generate-download-code", { ...request, email: "sin-arroba" });
    expect(bad.status).toBe(400);
  });

  it("lets only the admin read the outbox, newest first, a page at a time, and nothing outside it", async () => {
    const files = await outbox();
    const page = await admin.get<OutboxPage>("/api/admin/outbox?limit=3");
    expect(page.status).toBe(200);
    expect(page.body.delivery).toBe("outbox");
    expect(page.body.messages.map((entry) => `${entry.id}.eml`)).toEqual(
      files
        .map((file) => file.name)
        .reverse()
        .slice(0, 3),
    );
    const next = await admin.get<OutboxPage>(`/api/admin/outbox?limit=3&cursor=${page.body.nextCursor}`);
    expect(next.body.messages[0]?.id).toBe(files.at(-4)?.name.replace(".eml", ""));

    const newest = page.body.messages[0];
    const message = await admin.get<OutboxMessage>(`/api/admin/outbox/${newest?.id}`);
    expect(message.status).toBe(200);
    expect(message.body).toMatchObject({
      id: newest?.id,
      to: newest?.to,
      subject: newest?.subject,
      from: "Dorsal <no-responder@dorsal.local>",
    });
    expect(message.body.text).toBe(files.at(-1)?.text?.trimEnd());

    const photographerEmail = "correo.foto@dorsal.test";
    const created = await admin.post<{ user: PublicUser }>("/api/users", {
      name: "Foto Correo",
      email: photographerEmail,
      password: "secreto1",
      assignedEventId: event.id,
    });
    expect(created.status).toBe(201);
    const login = await visitor.post<{ token: string }>("/api/auth/login", {
      email: photographerEmail,
      password: "secreto1",
    });
    const photographer = apiClient(dorsal.url, login.body.token);
    for (const route of ["/api/admin/outbox", `/api/admin/outbox/${newest?.id}`]) {
      expect((await visitor.get(route)).status).toBe(401);
      expect((await photographer.get(route)).status).toBe(403);
    }

    for (const id of ["..%2F..%2Fkeys%2Fjwt-private.json", "..%2Foutbox", "%2E%2E", "notas", `${newest?.id}.eml`]) {
      const refused = await admin.get<ErrorBody>(`/api/admin/outbox/${id}`);
      expect([400, 404]).toContain(refused.status);
      expect(JSON.stringify(refused.body)).not.toContain("kty");
    }
    const unknown = await admin.get<ErrorBody>("/api/admin/outbox/20991231T235959999Z-00000000");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe(mailMessages.messageNotFound);
    expect((await admin.get<ErrorBody>("/api/admin/outbox?cursor=..%2F..")).status).toBe(400);
  });

  describe("avísame cuando estén mis fotos", () => {
    let race: EventDto;
    const bib = "7310";
    let unsubscribeToken = "";
    let racePhotoId = "";
    const ask = (email: string, consent: unknown = true) =>
      visitor.post<{ message: string } & ErrorBody>("/api/notifications", { eventId: race.id, bib, email, consent });
    /** The token of a link to /avisos/{action} in the last message to `address` with it. */
    const linkToken = async (address: string, action: "confirmar" | "baja") => {
      const token = (await to(address))
        .map((mail) => new RegExp(`/avisos/${action}#([\\w.-]+)`).exec(mail.text ?? "")?.[1])
        .findLast((found) => found !== undefined);
      if (!token) throw new Error(`no ${action} link to ${address}`);
      tokens.add(token);
      return token;
    };
    const notices = async (address: string) =>
      (await to(address)).filter((mail) => mail.subject === `Ya están tus fotos de ${race.name}`);
    const noticeTo = (address: string) =>
      waitFor(async () => (await notices(address))[0], 60_000, `the photos' notice to ${address}`);

    beforeAll(async () => {
      race = (
        await admin.post<EventDto>("/api/events", {
          name: "Carrera de los Avisos",
          date: "2026-12-06",
          location: "Cali",
        })
      ).body;
      const form = new FormData();
      form.append(
        "file",
        new Blob([`dorsal,nombre,email\n${bib},Lucía Pérez,Lista.Inscrita@example.co\n`]),
        "inscritos.csv",
      );
      expect((await admin.post(`/api/events/${race.id}/participants/import`, form)).status).toBe(200);
    });

    it("refuses a request without the ticked consent or with a bad email, in Spanish", async () => {
      expect(await ask("ana@example.co", false)).toMatchObject({
        status: 400,
        body: { details: [{ path: "consent", message: "Marca la casilla para aceptar que guardemos tu correo" }] },
      });
      expect(await ask("ana@example.co", null)).toMatchObject({ status: 400 });
      expect(await ask("ana.example.co")).toMatchObject({
        status: 400,
        body: { details: expect.arrayContaining([{ path: "email", message: "El correo debe contener el símbolo @" }]) },
      });
      expect(await to("ana@example.co")).toEqual([]);
    });

    it("asks to confirm, answers alike whoever asked, and tells the confirmed, the start list's, never the unconfirmed, once", async () => {
      const asked = await ask("Atleta.Uno@example.co");
      expect(asked).toEqual({ status: 202, body: { message: expect.stringContaining("te enviamos un mensaje") } });
      const confirmation = (await to("atleta.uno@example.co"))[0];
      expect(confirmation?.subject).toBe(`Confirma tu aviso de fotos de ${race.name}`);
      expect(await ask("nunca.confirma@example.co")).toEqual(asked);

      const confirm = (token: string) =>
        visitor.post<{ message: string } & ErrorBody>("/api/notifications/confirm", { token });
      const token = await linkToken("atleta.uno@example.co", "confirmar");
      expect(await confirm(token)).toEqual({
        status: 200,
        body: { message: expect.stringContaining("te escribiremos") },
      });
      expect(await confirm(token)).toMatchObject({
        status: 400,
        body: { error: expect.stringContaining("no es válido") },
      });
      // Asked again once subscribed: the same answer, and no second message.
      expect(await ask("atleta.uno@example.co")).toEqual(asked);
      expect(await to("atleta.uno@example.co")).toHaveLength(1);

      const uploaded = await uploadBibPhotos(dorsal, await adminToken(dorsal), race.id, [bib, bib]);
      racePhotoId = uploaded.get(bib)?.[0] ?? "";
      const notice = await noticeTo("atleta.uno@example.co");
      const count = Number(/Ya hay (\d+) fotos? del dorsal 7310/.exec(notice.text ?? "")?.[1]);
      expect(count).toBeGreaterThanOrEqual(1);
      expect(notice.text).toContain(`${dorsal.url}/search?eventId=${race.id}&dorsal=${bib}`);
      unsubscribeToken = await linkToken("atleta.uno@example.co", "baja");
      expect(unsubscribeToken).toMatch(/^\d+\.7310\./);
      await noticeTo("lista.inscrita@example.co");
      expect((await to("nunca.confirma@example.co")).map((mail) => mail.subject)).toEqual([
        `Confirma tu aviso de fotos de ${race.name}`,
      ]);
    });

    it("unsubscribes by the message's link: no more messages, while a new subscriber still gets one", async () => {
      const unsubscribe = () =>
        visitor.post<{ message: string }>("/api/notifications/unsubscribe", { token: unsubscribeToken });
      expect(await unsubscribe()).toEqual({
        status: 200,
        body: { message: expect.stringContaining("no te escribiremos más") },
      });
      expect(await unsubscribe()).toMatchObject({ status: 200 });
      expect(await visitor.post("/api/notifications/unsubscribe", { token: "1.7310.abc.def" })).toMatchObject({
        status: 400,
      });

      await ask("atleta.dos@example.co");
      await visitor.post("/api/notifications/confirm", {
        token: await linkToken("atleta.dos@example.co", "confirmar"),
      });
      // An organizer's manual tag links a photo as the pipeline does: the bib taken off a photo and put back.
      const bibsOfPhoto = `/api/events/${race.id}/photos/${racePhotoId}/bibs`;
      expect((await admin.delete(`${bibsOfPhoto}/${bib}`)).status).toBe(200);
      expect((await admin.post(bibsOfPhoto, { dorsalNumber: bib })).status).toBe(200);
      await noticeTo("atleta.dos@example.co");
      // Sent in the same sweep as atleta.dos's, had they been owed one: the unsubscribed none, the
      // start list's none more today.
      expect(await notices("atleta.uno@example.co")).toHaveLength(1);
      expect(await notices("lista.inscrita@example.co")).toHaveLength(1);
      expect(await notices("nunca.confirma@example.co")).toHaveLength(0);
    });
  });

  it("never breaks the action when the email cannot go: the sale is paid, the code made, the admin told", async () => {
    // The outbox folder replaced by a file: every write fails, as a full disk or a refused send would.
    await rm(outboxDir(), { recursive: true });
    await writeFile(outboxDir(), "no es una carpeta");

    const paid = await sale("sin.correo@example.co");
    await choose(paid.paymentUrl, "APPROVED");
    expect((await info(paid.token)).body.status).toBe("paid");
    const renewed = await admin.post<AdminSaleLink>(`/api/admin/sales/${paid.saleId}/link`, { sendEmail: true });
    expect(renewed.status).toBe(200);
    expect(renewed.body.mail).toEqual({ to: "sin.correo@example.co", sent: false });
    tokens.add(new URL(renewed.body.downloadUrl).searchParams.get("token") ?? "");
    const code = await admin.post<DownloadCodeResult>("/api/admin/generate-download-code", {
      eventId: event.id,
      dorsalNumber: "5173",
      email: "pago@example.co",
    });
    expect(code.status).toBe(201);
    expect(code.body.mail).toEqual({ to: "pago@example.co", sent: false });

    const warnings = dorsal
      .output()
      .split("\n")
      .filter((line) => line.includes('"email not sent"'));
    expect(warnings.map((line) => JSON.parse(line).data.purpose)).toEqual([
      "sale-paid",
      "sale-new-link",
      "download-code",
    ]);
    expect(warnings[0]).toContain(paid.saleId);
    expect(warnings.join("\n")).not.toContain(code.body.code);
    await rm(outboxDir());
  });

  it("never prints a download token", () => {
    expect(tokens.size).toBeGreaterThanOrEqual(10);
    const output = dorsal.output();
    for (const token of tokens) expect(output).not.toContain(token);
  });
});
