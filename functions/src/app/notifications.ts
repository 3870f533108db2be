import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { messages } from "@dorsal/shared";
import { mailTexts } from "@dorsal/shared/mail-texts";
import {
  type NotifyAnswer,
  notifyConsentVersion,
  notifyMessages,
  type notifyRequest,
} from "@dorsal/shared/notifications";
import type { z } from "zod";
import type { NotifySubscription } from "../data/notifications";
import type { Deps } from "./deps";
import { AppError, invalid, notFound } from "./errors";
import { attemptWindow, attemptWindowExpiry } from "./login-throttle";
import { sendMail } from "./mail";
import type { RequestClient } from "./throttle";

/**
 * 'Avísame cuando estén mis fotos' (docs/features.md#avísame-cuando-estén-mis-fotos): athletes
 * subscribe a bib on /search (double opt-in) or through the organizer's start list; once the
 * bib's photos stop arriving for a quiet period, a sweep sends each subscription one message.
 */

export type NotifyDeps = Pick<
  Deps,
  "config" | "clock" | "notifications" | "events" | "bibLinks" | "loginAttempts" | "mail" | "logger" | "siteUrl"
>;

/** How long a confirmation link works; an unconfirmed request is deleted then (TTL). */
const confirmLinkHours = 48;
/** After a message, more photos of the bib wait at least this long for the next one. */
const notifyRepeatHours = 24;
/** Requests one address may make per throttle window (7.5 min), whatever the emails. */
const requestsPerAddress = 10;
/** Confirmation emails one email address may receive per window, whoever asks. */
const confirmationsPerEmail = 3;
/** Messages one sweep sends at most; the rest wait for the next (every 5 min on AWS). */
const sweepBatch = 200;
/**
 * A sweep claims no more messages after this long, so a slow SES (8 s a send at worst) never lets the
 * function's timeout (4 min) cut one off between its claim and its send.
 */
const sweepBudgetMs = 120_000;

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

export const emailKeyOf = (email: string) => sha256(email.trim().toLowerCase()).slice(0, 32);

/**
 * A link's token: which subscription (event, bib, email key) and a secret only the email holds. The
 * table keeps the secret's SHA-256; the parts before it only find the item to compare with.
 */
function drawLinkToken(sub: Pick<NotifySubscription, "eventId" | "bib" | "emailKey">) {
  const secret = randomBytes(32).toString("base64url");
  return { token: `${sub.eventId}.${sub.bib}.${sub.emailKey}.${secret}`, hash: sha256(secret) };
}

function parseLinkToken(token: string) {
  const [eventId, bib, emailKey, secret] = token.split(".");
  if (!eventId || !bib || !emailKey || !secret) return undefined;
  return { eventId: Number(eventId), bib, emailKey, hash: sha256(secret) };
}

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const addHours = (at: Date, hours: number) => new Date(at.getTime() + hours * 3600_000);

const searchLink = (deps: Pick<Deps, "siteUrl">, eventId: number, bib: string) =>
  `${deps.siteUrl}/search?eventId=${eventId}&dorsal=${encodeURIComponent(bib)}`;

/** Fragments never reach a server: the token stays out of every access log, CloudFront's included. */
const linkTo = (deps: Pick<Deps, "siteUrl">, action: "confirmar" | "baja", token: string) =>
  `${deps.siteUrl}/avisos/${action}#${token}`;

/** Counts one request of this subject; true while it is within `limit` in the current window. */
async function withinLimit(deps: NotifyDeps, subject: string, client: string, limit: number): Promise<boolean> {
  const window = attemptWindow(deps.clock.now());
  return (await deps.loginAttempts.count(subject, client, window, attemptWindowExpiry(window))) <= limit;
}

/**
 * POST /api/notifications: an athlete asks on /search to be told when photos of their bib arrive.
 * 1. too many requests from this address: 429, as sign-in's limits answer;
 * 2. an address already subscribed to the bib gets nothing new; any other gets a confirmation
 *    link (unless it already received a few this window), stored hashed, expiring;
 * 3. the answer is the same in every case, so nobody learns whether an address asked before.
 */
export async function requestNotification(
  deps: NotifyDeps,
  request: z.output<typeof notifyRequest>,
  client: RequestClient,
): Promise<NotifyAnswer> {
  if (!(await withinLimit(deps, "aviso", `ip:${client.ip}`, requestsPerAddress)))
    throw new AppError("too_many", messages.tooManyRequests);
  const event = await deps.events.get(request.eventId);
  if (!event) throw notFound(messages.eventNotFound);

  const emailKey = emailKeyOf(request.email);
  const existing = await deps.notifications.get(request.eventId, request.bib, emailKey);
  const answer = { message: notifyMessages.requested };
  if (existing?.status === "active") return answer;
  if (!(await withinLimit(deps, `aviso:${emailKey}`, "correo", confirmationsPerEmail))) return answer;

  const now = deps.clock.now();
  const expiresAt = addHours(now, confirmLinkHours).toISOString();
  const { token, hash } = drawLinkToken({ eventId: request.eventId, bib: request.bib, emailKey });
  await deps.notifications.saveRequest({
    ...(existing ?? {
      eventId: request.eventId,
      bib: request.bib,
      emailKey,
      source: "search" as const,
      status: "pending" as const,
      consentVersion: null,
      unsubscribeHashes: [],
      sentCount: 0,
    }),
    email: request.email,
    requestedAt: now.toISOString(),
    confirmHash: hash,
    confirmExpiresAt: expiresAt,
  });
  await sendMail(
    deps,
    request.email,
    mailTexts.notifyConfirm({
      eventName: event.name,
      bib: request.bib,
      link: linkTo(deps, "confirmar", token),
      expiresAt,
    }),
    { purpose: "notify-confirm", eventId: request.eventId },
  );
  return answer;
}

/** The subscription a link's token names, if its secret matches one of `hashesOf` it. */
async function subscriptionOfToken(
  deps: NotifyDeps,
  token: string,
  hashesOf: (sub: NotifySubscription) => (string | undefined)[],
) {
  const parsed = parseLinkToken(token);
  if (!parsed || !Number.isSafeInteger(parsed.eventId)) return undefined;
  const sub = await deps.notifications.get(parsed.eventId, parsed.bib, parsed.emailKey);
  if (!sub) return undefined;
  const matching = hashesOf(sub).find((hash) => hash !== undefined && sameHash(hash, parsed.hash));
  return matching ? { sub, hash: matching } : undefined;
}

/** POST /api/notifications/confirm: the confirmation link's page, once the athlete pressed Confirmar. */
export async function confirmNotification(deps: NotifyDeps, token: string): Promise<NotifyAnswer> {
  const found = await subscriptionOfToken(deps, token, (sub) => [sub.confirmHash]);
  const now = deps.clock.now();
  if (!found?.sub.confirmExpiresAt || new Date(found.sub.confirmExpiresAt) <= now)
    throw invalid(notifyMessages.linkInvalid);
  if (!(await deps.notifications.confirm(found.sub, found.hash, now.toISOString(), notifyConsentVersion)))
    throw invalid(notifyMessages.linkInvalid);
  return { message: notifyMessages.confirmed };
}

/** POST /api/notifications/unsubscribe: any message's link; a second press says the same. */
export async function unsubscribeNotification(deps: NotifyDeps, token: string): Promise<NotifyAnswer> {
  const found = await subscriptionOfToken(deps, token, (sub) => sub.unsubscribeHashes);
  if (!found) throw invalid(notifyMessages.linkInvalid);
  if (found.sub.status === "active") await deps.notifications.unsubscribe(found.sub, deps.clock.now().toISOString());
  return { message: notifyMessages.unsubscribed };
}

const quietEnd = (deps: Pick<Deps, "config">, now: Date) =>
  new Date(now.getTime() + deps.config.NOTIFY_QUIET_SECONDS * 1000);

/** When the next message of a subscription may go: after the quiet period, and a day after the last. */
function sendAfterFor(deps: Pick<Deps, "config">, sub: NotifySubscription, now: Date): string {
  const dayAfterLast = sub.lastSentAt ? addHours(new Date(sub.lastSentAt), notifyRepeatHours).getTime() : 0;
  return new Date(Math.max(quietEnd(deps, now).getTime(), dayAfterLast)).toISOString();
}

/**
 * A photo was newly linked to a bib (the pipeline's record step, a manual tag, a re-index): every
 * active subscription of the bib is owed a message, pushed back by each further photo. Never fails
 * the caller: a missed notice costs less than a photo left half-recorded.
 */
export async function noticeBibPhoto(
  deps: Pick<Deps, "config" | "clock" | "notifications" | "logger">,
  eventId: number,
  bib: string,
): Promise<void> {
  try {
    const subs = await deps.notifications.ofBib(eventId, bib);
    const now = deps.clock.now();
    for (const sub of subs) {
      if (sub.status === "active")
        await deps.notifications.markDue(sub, now.toISOString(), sendAfterFor(deps, sub, now));
    }
  } catch (error) {
    deps.logger.warn("bib photo not noticed for notifications", {
      eventId,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/**
 * The sweep (a timer locally, an EventBridge schedule on AWS): each subscription whose message is
 * owed and whose quiet period is over gets one email, with the bib's photo count, a link to its
 * search and a link to unsubscribe.
 * 1. read the owed ones from the sparse index, then each item again (the index lags);
 * 2. claim the message on condition nothing changed, so it goes once;
 * 3. send; a failed send is owed again a quiet period later.
 */
export async function sendDueNotifications(deps: NotifyDeps): Promise<{ sent: number; failed: number }> {
  const now = deps.clock.now();
  const result = { sent: 0, failed: 0 };
  for (const listed of await deps.notifications.due(now.toISOString(), sweepBatch)) {
    if (deps.clock.now().getTime() - now.getTime() > sweepBudgetMs) break;
    const sub = await deps.notifications.get(listed.eventId, listed.bib, listed.emailKey);
    if (!sub?.sendAfter || sub.status !== "active" || new Date(sub.sendAfter) > now) continue;
    const event = await deps.events.get(sub.eventId);
    const photoCount = event ? await deps.bibLinks.countPhotos(sub.eventId, sub.bib) : 0;
    if (photoCount === 0) {
      await deps.notifications.clearDue(sub);
      continue;
    }
    const { token, hash } = drawLinkToken(sub);
    if (!(await deps.notifications.claimSend(sub, now.toISOString(), hash))) continue;
    const outcome = await sendMail(
      deps,
      sub.email,
      mailTexts.notifyPhotos({
        eventName: event?.name ?? "",
        bib: sub.bib,
        photoCount,
        searchLink: searchLink(deps, sub.eventId, sub.bib),
        unsubscribeLink: linkTo(deps, "baja", token),
      }),
      { purpose: "notify-photos", eventId: sub.eventId },
    );
    if (outcome.sent) result.sent++;
    else {
      result.failed++;
      await deps.notifications.releaseSend(sub, quietEnd(deps, now).toISOString());
    }
  }
  return result;
}

/**
 * A start list was imported (or removed, with no rows): its emails become the subscriptions of
 * their bibs, the organizer's registration being the consent basis (source `startList`, no
 * confirmation). The previous list's subscriptions that the new one lacks go; an address that
 * unsubscribed stays unsubscribed; an athlete's own subscription stays as it is. A bib that already
 * has photos is owed its message at once (after the quiet period).
 */
export async function subscribeStartList(
  deps: NotifyDeps & Pick<Deps, "participants">,
  eventId: number,
  rows: readonly { bib: string; email: string | null }[],
): Promise<void> {
  const keyOf = (bib: string, emailKey: string) => `${bib}#${emailKey}`;
  const existing = new Map(
    (await deps.notifications.ofEvent(eventId)).map((sub) => [keyOf(sub.bib, sub.emailKey), sub]),
  );
  const wanted = new Map<string, { bib: string; email: string; emailKey: string }>();
  for (const row of rows) {
    if (!row.email) continue;
    const email = row.email.trim().toLowerCase();
    const emailKey = emailKeyOf(email);
    wanted.set(keyOf(row.bib, emailKey), { bib: row.bib, email, emailKey });
  }
  const dropped = [...existing.values()].filter(
    (sub) => sub.source === "startList" && sub.status === "active" && !wanted.has(keyOf(sub.bib, sub.emailKey)),
  );
  await deps.notifications.deleteAll(dropped);

  const added = [...wanted.entries()].filter(([key]) => {
    const status = existing.get(key)?.status;
    return status === undefined || status === "pending";
  });
  if (added.length === 0) return;
  const counts = await deps.participants.participantCountsOf(
    eventId,
    added.map(([, { bib }]) => bib),
  );
  const now = deps.clock.now();
  const sendAfter = quietEnd(deps, now).toISOString();
  await deps.notifications.putAll(
    added.map(([, { bib, email, emailKey }]) => ({
      eventId,
      bib,
      emailKey,
      email,
      source: "startList",
      status: "active",
      consentVersion: null,
      requestedAt: now.toISOString(),
      unsubscribeHashes: [],
      sentCount: 0,
      ...((counts.get(bib) ?? 0) > 0 ? { sendAfter, lastPhotoAt: now.toISOString() } : {}),
    })),
  );
}
