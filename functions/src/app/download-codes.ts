import { randomInt } from "node:crypto";
import {
  type DownloadCodeResult,
  type DownloadCodeValidation,
  type DownloadZip,
  type generateDownloadCodeRequest,
  type IssuedDownloadCode,
  messages,
  salesMessages,
  type validateDownloadCodeRequest,
} from "@dorsal/shared";
import { api, pathFor } from "@dorsal/shared/contract";
import { mailTexts } from "@dorsal/shared/mail-texts";
import type { z } from "zod";
import { codeDownloadGrant, type DownloadCodeRecord } from "../data/download-codes";
import type { PhotoRecord } from "../data/photos";
import type { Deps } from "./deps";
import { conflict, forbidden, gone, invalid, notFound } from "./errors";
import { sendMail } from "./mail";
import { downloadablePhotos, signedOriginalUrl } from "./original-download";
import { zipOfOriginals } from "./original-zip";
import { inUploadOrder } from "./photo-view";
import { addressClient, failureThrottledCheck, type RequestClient, throttledCheck } from "./throttle";

/**
 * Download codes (spec §2.7, §3 download_codes): an admin issues one after a payment outside the
 * gateway (bank transfer, mobile wallet); the athlete types it to download one bib's photos of one
 * event, each photo up to the code's `maxDownloads` (a ZIP counts one download of each photo in
 * it), until it expires. The code's `downloadCount` is the total over its photos.
 */

/** Letters and digits a customer cannot misread when the code is dictated or copied from a chat (no 0/O, 1/I/L). */
const codeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const codeLength = 8;
const drawCode = () => Array.from({ length: codeLength }, () => codeAlphabet[randomInt(codeAlphabet.length)]).join("");
const dayMs = 86_400_000;

type GenerateInput = z.output<typeof generateDownloadCodeRequest>;
type ValidateInput = z.output<typeof validateDownloadCodeRequest>;

/**
 * Issues a code:
 * 1. the event must be active and sell its photos (a free event needs no code);
 * 2. the bib must have photos in the event, unless the organizer confirmed it anyway
 *    (`allowWithoutPhotos`): a mistyped bib would give the customer a code that opens nothing;
 * 3. draw 8 characters (31^8 ≈ 8.5 × 10^11 codes); the conditional put on the code itself makes it
 *    unique, and a collision draws again;
 * 4. with an address, email it the code's chat message; the code stands whether or not it is sent.
 */
export async function generateDownloadCode(
  deps: Deps,
  input: GenerateInput,
  adminId: string,
): Promise<DownloadCodeResult> {
  const event = await deps.events.get(input.eventId);
  if (!event) throw notFound(messages.eventNotFound);
  if (event.status !== "active" || event.freePhotosEnabled) throw invalid(salesMessages.codeEventNotEligible);
  if (!input.allowWithoutPhotos && (await photosOfBib(deps, event.id, input.dorsalNumber)).length === 0) {
    throw conflict(salesMessages.codeBibWithoutPhotos(input.dorsalNumber));
  }
  const now = deps.clock.now();
  const base = {
    eventId: event.id,
    dorsalNumber: input.dorsalNumber,
    maxDownloads: input.maxDownloads,
    expiresAt: new Date(now.getTime() + input.expiresInDays * dayMs).toISOString(),
    createdAt: now.toISOString(),
    createdBy: adminId,
    isUsed: false,
    usedAt: null,
    downloadCount: 0,
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = drawCode();
    const record: DownloadCodeRecord = input.email
      ? { ...base, code, sentTo: input.email.trim().toLowerCase() }
      : { ...base, code };
    if (await deps.downloadCodes.create(record)) {
      if (record.sentTo) await deps.downloadCodes.recordSentTo(record.sentTo, record);
      const issued = {
        code: record.code,
        dorsalNumber: record.dorsalNumber,
        eventId: event.id,
        eventName: event.name,
        expiresAt: record.expiresAt,
        maxDownloads: record.maxDownloads,
      };
      const mail = input.email
        ? await sendMail(deps, input.email, mailTexts.downloadCode(issued, deps.siteUrl), {
            purpose: "download-code",
            eventId: event.id,
          })
        : null;
      return { ...issued, mail };
    }
  }
  throw new Error("Five download-code collisions in a row: the code space is exhausted or the draw is broken");
}

/**
 * GET /api/admin/download-codes?eventId=: the event's codes, newest first, with their use counted
 * as the athlete's validation counts it (per photo, over the bib's photos now).
 */
export async function listDownloadCodes(deps: Deps, eventId: number): Promise<IssuedDownloadCode[]> {
  const codes = await deps.downloadCodes.listForEvent(eventId, 200);
  return Promise.all(codes.map((code) => codeInUse(deps, code)));
}

/** A code with its use counted as the athlete's validation counts it (per photo, over the bib's photos now). */
export async function codeInUse(deps: Deps, code: DownloadCodeRecord): Promise<IssuedDownloadCode> {
  const photos = await photosOfBib(deps, code.eventId, code.dorsalNumber);
  const counts = await deps.downloadCounts.counts(
    codeDownloadGrant(code.code),
    photos.map((photo) => photo.id),
  );
  const downloaded = photos.map((photo) => counts.get(photo.id) ?? 0);
  const mostDownloaded = Math.max(0, ...downloaded);
  const leastDownloaded = downloaded.length ? Math.min(...downloaded) : 0;
  return {
    code: code.code,
    eventId: code.eventId,
    dorsalNumber: code.dorsalNumber,
    downloadCount: code.downloadCount,
    maxDownloads: code.maxDownloads,
    remainingDownloads: Math.max(0, code.maxDownloads - mostDownloaded),
    mostRemainingDownloads: Math.max(0, code.maxDownloads - leastDownloaded),
    photoCount: photos.length,
    expiresAt: code.expiresAt,
    createdAt: code.createdAt,
    isUsed: code.isUsed,
    usedAt: code.usedAt,
  };
}

/** The bib's processed photos in the event, oldest first: what a code for it opens. */
async function photosOfBib(deps: Deps, eventId: number, dorsalNumber: string): Promise<PhotoRecord[]> {
  const photos = await deps.photos.getMany(await deps.bibLinks.photoIdsForBib(eventId, dorsalNumber));
  return photos.filter((photo) => photo.processingStatus === "successful").sort(inUploadOrder);
}

const isExpired = (code: DownloadCodeRecord, now: Date) => Date.parse(code.expiresAt) <= now.getTime();

/**
 * POST /api/download-codes/validate: whether the code opens this event's bib, and its photos. A
 * wrong code counts as a failed attempt for that event and bib, under the sign-in throttle, so
 * codes cannot be guessed by trying many.
 */
export async function validateDownloadCode(
  deps: Deps,
  input: ValidateInput,
  client: RequestClient,
): Promise<DownloadCodeValidation> {
  let found: DownloadCodeRecord | undefined;
  const subject = `codigo:${input.eventId}#${input.dorsalNumber}`;
  const matches = await throttledCheck(deps, subject, addressClient(client), async () => {
    found = await deps.downloadCodes.get(input.code);
    return found?.eventId === input.eventId && found.dorsalNumber === input.dorsalNumber;
  });
  const refused = (error: string): DownloadCodeValidation => ({ valid: false, error, remainingDownloads: 0 });
  if (!matches || !found) return refused(salesMessages.codeInvalid);
  const code: DownloadCodeRecord = found;
  // A deleted event's codes stay in their own partitions; they open nothing.
  if (!(await deps.events.get(code.eventId))) return refused(salesMessages.codeInvalid);
  if (isExpired(code, deps.clock.now())) return refused(salesMessages.codeExpired);
  const downloadable = await downloadablePhotos(
    deps,
    {
      partition: codeDownloadGrant(code.code),
      maxDownloads: code.maxDownloads,
      downloadUrl: (photoId) => pathFor(api.codes.downloadPhoto, { code: code.code, photoId }),
    },
    await photosOfBib(deps, code.eventId, code.dorsalNumber),
  );
  // Spent once no photo has a download left; a photo downloaded more often than the others does not close the rest.
  if (downloadable.photos.length > 0 && downloadable.photos.every((photo) => photo.remainingDownloads <= 0)) {
    return refused(salesMessages.codeLimit);
  }
  return { valid: true, expiresAt: code.expiresAt, maxDownloads: code.maxDownloads, ...downloadable };
}

/**
 * The code a download names, if it still opens anything. An unknown code counts as a failure of
 * the client under the throttle, so the download doors cannot be used to try codes either.
 */
async function openCode(deps: Deps, rawCode: string, client: RequestClient): Promise<DownloadCodeRecord> {
  let found: DownloadCodeRecord | undefined;
  const known = await failureThrottledCheck(deps, "codigo-descarga", addressClient(client), async () => {
    found = await deps.downloadCodes.get(rawCode.trim().toUpperCase());
    return found !== undefined;
  });
  if (!known || !found) throw notFound(salesMessages.codeInvalid);
  const code: DownloadCodeRecord = found;
  if (isExpired(code, deps.clock.now())) throw gone(salesMessages.codeExpired);
  return code;
}

/**
 * POST /api/download-codes/download/{code}/zip: one ZIP of the bib's originals that still have
 * downloads left under the code, each counted once, like a single download (app/original-zip.ts).
 */
export async function downloadZipWithCode(deps: Deps, rawCode: string, client: RequestClient): Promise<DownloadZip> {
  const code = await openCode(deps, rawCode, client);
  const event = await deps.events.get(code.eventId);
  if (!event) throw notFound(salesMessages.codeInvalid);
  const zip = await zipOfOriginals(
    deps,
    {
      partition: codeDownloadGrant(code.code),
      maxDownloads: code.maxDownloads,
      title: `fotos ${event.name} dorsal ${code.dorsalNumber}`,
    },
    await photosOfBib(deps, code.eventId, code.dorsalNumber),
  );
  if (!zip) throw forbidden(salesMessages.codeLimit);
  await deps.downloadCodes.recordDownload(code.code, deps.clock.now(), zip.photoCount);
  return zip;
}

/**
 * GET /api/download-codes/download/{code}/{photoId}: counts one download of a photo of the code's
 * bib (one conditional ADD: parallel requests never pass the cap) and returns a signed URL of the
 * clean original. A photo that is not the code's gets the same answer as an unknown code.
 */
export async function downloadWithCode(
  deps: Deps,
  rawCode: string,
  photoId: string,
  client: RequestClient,
): Promise<string> {
  const code = await openCode(deps, rawCode, client);
  const now = deps.clock.now();
  const photo = await deps.photos.get(photoId);
  const ofCode =
    photo?.eventId === code.eventId &&
    photo.processingStatus === "successful" &&
    photo.detectedDorsals.includes(code.dorsalNumber);
  if (!photo || !ofCode) throw notFound(salesMessages.codeInvalid);
  const left = await deps.downloadCounts.consume(codeDownloadGrant(code.code), photo.id, code.maxDownloads);
  if (left === null) throw forbidden(salesMessages.codeLimit);
  await deps.downloadCodes.recordDownload(code.code, now);
  return signedOriginalUrl(deps, photo);
}
