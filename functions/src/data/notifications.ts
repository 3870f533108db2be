import type { Table } from "../ports/table";
import { dueNotificationsPartition, keys, notifySubscriptionsPrefix } from "./keys";
import { queryAll } from "./query-all";

/** Who gave the consent: the athlete on /search (double opt-in), or the organizer's start list. */
export type NotifySource = "search" | "startList";
export type NotifyStatus = "pending" | "active" | "unsubscribed";

/** One athlete's subscription to one bib of one event (docs/data-model.md). */
export interface NotifySubscription {
  eventId: number;
  bib: string;
  /** The first 32 hex digits of the lowercased address's SHA-256: the key, and a link token's part. */
  emailKey: string;
  email: string;
  source: NotifySource;
  status: NotifyStatus;
  /** The consent text's version the athlete ticked (search), or null (the start list is the basis). */
  consentVersion: string | null;
  requestedAt: string;
  confirmedAt?: string;
  unsubscribedAt?: string;
  /** SHA-256 of the emailed confirmation link's secret, while one is waiting. */
  confirmHash?: string;
  confirmExpiresAt?: string;
  /** SHA-256 of each sent message's unsubscribe secret: every message's link keeps working. */
  unsubscribeHashes: string[];
  /** When a message is owed: not before this (quiet period, then the daily limit); with the gsi2 entry. */
  sendAfter?: string;
  lastPhotoAt?: string;
  lastSentAt?: string;
  sentCount: number;
  /** Only an unconfirmed request expires (DynamoDB TTL); a confirmed or refused one is kept. */
  ttl?: number;
}

const epochSeconds = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

const keyOf = (sub: Pick<NotifySubscription, "eventId" | "bib" | "emailKey">) =>
  keys.notifySubscription(sub.eventId, sub.bib, sub.emailKey);

const dueIndexOf = (sub: NotifySubscription, sendAfter: string) =>
  keys.dueNotificationIndex(sendAfter, sub.eventId, sub.bib, sub.emailKey);

const dueAttributes = ["gsi2pk", "gsi2sk", "sendAfter"];

export function createNotificationRepository(table: Table) {
  const item = (sub: NotifySubscription) => ({
    ...keyOf(sub),
    type: "notifySubscription",
    ...sub,
    ...(sub.sendAfter ? dueIndexOf(sub, sub.sendAfter) : {}),
  });

  return {
    get: (eventId: number, bib: string, emailKey: string) =>
      table.get<NotifySubscription>(keys.notifySubscription(eventId, bib, emailKey)),

    /** A bib's subscriptions, read strongly: a confirmation a moment ago must count. */
    ofBib: (eventId: number, bib: string) =>
      queryAll<NotifySubscription>(table, {
        partition: keys.event(eventId).pk,
        sortPrefix: notifySubscriptionsPrefix(bib),
        consistent: true,
      }),

    ofEvent: (eventId: number) =>
      queryAll<NotifySubscription>(table, {
        partition: keys.event(eventId).pk,
        sortPrefix: notifySubscriptionsPrefix(),
      }),

    /** A new request, or a new confirmation link on one that exists (whatever its state). */
    async saveRequest(sub: NotifySubscription): Promise<void> {
      await table.put({
        ...item(sub),
        ...(sub.status === "pending" && sub.confirmExpiresAt ? { ttl: epochSeconds(sub.confirmExpiresAt) } : {}),
      });
    },

    /** The athlete opened the confirmation link: active from now, and kept (no TTL). */
    confirm: (sub: NotifySubscription, confirmHash: string, now: string, consentVersion: string) =>
      table.update<NotifySubscription>({
        key: keyOf(sub),
        set: { status: "active", source: "search", confirmedAt: now, consentVersion },
        remove: ["confirmHash", "confirmExpiresAt", "ttl", "unsubscribedAt"],
        conditions: [{ attribute: "confirmHash", op: "=", value: confirmHash }],
      }),

    /** Kept, so an organizer's later import never subscribes the address again. */
    unsubscribe: (sub: NotifySubscription, now: string) =>
      table.update<NotifySubscription>({
        key: keyOf(sub),
        set: { status: "unsubscribed", unsubscribedAt: now },
        remove: ["confirmHash", "confirmExpiresAt", "ttl", "lastPhotoAt", ...dueAttributes],
        conditions: [{ attribute: "status", op: "=", value: "active" }],
      }),

    /** A photo of the bib became searchable: a message is owed, not before `sendAfter`. */
    markDue: (sub: NotifySubscription, lastPhotoAt: string, sendAfter: string) =>
      table.update<NotifySubscription>({
        key: keyOf(sub),
        set: { lastPhotoAt, sendAfter, ...dueIndexOf(sub, sendAfter) },
        conditions: [{ attribute: "status", op: "=", value: "active" }],
      }),

    /** Subscriptions whose message may go now, oldest first (the sparse index; eventually consistent). */
    async due(now: string, limit: number): Promise<NotifySubscription[]> {
      const page = await table.query<NotifySubscription>({
        index: "gsi2",
        partition: dueNotificationsPartition,
        sortBetween: ["0", `${now}#~`],
        limit,
      });
      return page.items;
    },

    /**
     * Takes the owed message for this sender before it is sent, on condition nothing changed since
     * it was read (no new photo moved `sendAfter`, no unsubscribe): two sweeps never send it twice.
     */
    claimSend: (sub: NotifySubscription, now: string, unsubscribeHash: string) =>
      table.update<NotifySubscription>({
        key: keyOf(sub),
        set: { lastSentAt: now, unsubscribeHashes: [...sub.unsubscribeHashes, unsubscribeHash] },
        add: { sentCount: 1 },
        remove: dueAttributes,
        conditions: [
          { attribute: "status", op: "=", value: "active" },
          { attribute: "sendAfter", op: "=", value: sub.sendAfter },
        ],
      }),

    /** The send failed after the claim: owed again, as before the claim, for the next sweep. */
    async releaseSend(sub: NotifySubscription, retryAfter: string): Promise<void> {
      await table.update({
        key: keyOf(sub),
        set: {
          sentCount: sub.sentCount,
          unsubscribeHashes: sub.unsubscribeHashes,
          sendAfter: retryAfter,
          ...dueIndexOf(sub, retryAfter),
          ...(sub.lastSentAt ? { lastSentAt: sub.lastSentAt } : {}),
        },
        ...(sub.lastSentAt ? {} : { remove: ["lastSentAt"] }),
        conditions: [{ attribute: "status", op: "=", value: "active" }],
      });
    },

    /** Nothing to send after all (the photos were removed, or the event): off the due list. */
    async clearDue(sub: NotifySubscription): Promise<void> {
      await table.update({ key: keyOf(sub), remove: dueAttributes });
    },

    delete: (sub: NotifySubscription) => table.delete(keyOf(sub)),

    /** A start list's subscriptions, written together (the import's own, nobody else's). */
    async putAll(subs: NotifySubscription[]): Promise<void> {
      await table.batchPut(subs.map(item));
    },

    async deleteAll(subs: NotifySubscription[]): Promise<void> {
      await table.batchDelete(subs.map(keyOf));
    },
  };
}

export type NotificationRepository = ReturnType<typeof createNotificationRepository>;
