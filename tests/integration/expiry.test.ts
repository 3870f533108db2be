import { createHash, randomBytes } from "node:crypto";
import { salesMessages } from "@dorsal/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Deps } from "../../functions/src/app/deps";
import {
  downloadWithCode,
  downloadZipWithCode,
  generateDownloadCode,
  validateDownloadCode,
} from "../../functions/src/app/download-codes";
import { sweepDownloadZips } from "../../functions/src/app/original-zip";
import { downloadInfo, downloadPhoto, downloadZip } from "../../functions/src/app/paid-downloads";
import { downloadZipKey } from "../../functions/src/app/storage-paths";
import { startInProcess } from "../support/in-process";
import { pendingSale } from "../support/sales";

/**
 * Download links and codes stop working the moment they expire. Their shortest validity is days,
 * so the use cases run in-process over the real stores (dynalite, s3rver) with the one port that
 * tells the time moved forward; everything else is the runtime's own composition.
 */
describe("expired download links and codes", () => {
  let running: Awaited<ReturnType<typeof startInProcess>>;
  let deps: Deps;
  let now = new Date("2026-11-25T15:00:00.000Z");
  const dayMs = 86400_000;

  beforeAll(async () => {
    running = await startInProcess("Carrera que vence");
    deps = { ...running.container.deps, clock: { now: () => now } };
  });
  afterAll(async () => {
    await running?.stop();
  });

  it("opens a paid sale's link until its validity ends, then answers 410 for the page and every photo", async () => {
    const token = randomBytes(32).toString("base64url");
    const sale = pendingSale("venta-que-vence", now, {
      reference: "DORSAL-venta-que-vence",
      eventId: running.eventId,
      dorsalNumber: "5173",
      // As the sale stores it: the SHA-256 of the token, never the token.
      tokenHash: createHash("sha256").update(token, "utf8").digest("hex"),
      checkoutExpiresAt: new Date(now.getTime() + 3600_000).toISOString(),
    });
    expect(await deps.sales.create(sale)).toBe(true);
    const paid = await deps.sales.markPaid(sale, {
      transactionId: "tx-1",
      paymentMethod: "CARD",
      statusMessage: null,
      at: now,
    });
    expect(paid?.expiresAt).toBe(new Date(now.getTime() + 30 * dayMs).toISOString());

    now = new Date(now.getTime() + 30 * dayMs - 1000);
    expect(await downloadInfo(deps, token, undefined)).toMatchObject({ status: "paid", maxDownloads: 3 });

    now = new Date(now.getTime() + 1000);
    const expired = { kind: "gone", message: salesMessages.downloadExpired };
    await expect(downloadInfo(deps, token, undefined)).rejects.toMatchObject(expired);
    await expect(downloadPhoto(deps, token, "foto-1")).rejects.toMatchObject(expired);
    await expect(downloadZip(deps, token)).rejects.toMatchObject(expired);
  });

  it("opens a download code until it expires, then refuses it and its downloads", async () => {
    const athlete = { ip: "192.168.1.50" };
    const code = await generateDownloadCode(
      deps,
      // The event has no photos here: issued as an organizer confirms a code before the photos are up.
      { eventId: running.eventId, dorsalNumber: "5173", expiresInDays: 7, maxDownloads: 3, allowWithoutPhotos: true },
      "admin-1",
    );
    expect(code.expiresAt).toBe(new Date(now.getTime() + 7 * dayMs).toISOString());
    const validate = () =>
      validateDownloadCode(deps, { eventId: running.eventId, dorsalNumber: "5173", code: code.code }, athlete);

    now = new Date(Date.parse(code.expiresAt) - 1000);
    expect(await validate()).toMatchObject({ valid: true, expiresAt: code.expiresAt });

    now = new Date(Date.parse(code.expiresAt));
    expect(await validate()).toEqual({ valid: false, error: salesMessages.codeExpired, remainingDownloads: 0 });
    await expect(downloadWithCode(deps, code.code, "foto-1", athlete)).rejects.toMatchObject({
      kind: "gone",
      message: salesMessages.codeExpired,
    });
    await expect(downloadZipWithCode(deps, code.code, athlete)).rejects.toMatchObject({
      kind: "gone",
      message: salesMessages.codeExpired,
    });
  });

  it("sweeps download ZIPs made before yesterday, as the bucket's lifecycle rule does on AWS", async () => {
    const zipOn = (day: Date) => downloadZipKey(day.toISOString().slice(0, 10), "carpeta", "fotos.zip");
    const twoDaysAgo = zipOn(new Date(now.getTime() - 2 * dayMs));
    const yesterday = zipOn(new Date(now.getTime() - dayMs));
    for (const key of [twoDaysAgo, yesterday]) {
      await deps.objects.put("originals", key, Buffer.from("PK"), "application/zip", 2);
    }
    expect((await sweepDownloadZips(deps)).cleanedFiles).toBe(1);
    expect(await deps.objects.head("originals", twoDaysAgo)).toBeUndefined();
    expect(await deps.objects.head("originals", yesterday)).toBeDefined();
  });
});
