import { formatBytes } from "../../../lib/format";

/**
 * What a ZIP upload leaves in the browser while it runs, so that a dropped connection or a closed
 * tab continues it instead of starting over: its batch, the file it sends (to recognise the same
 * file when it is picked again, since a 2 GB archive cannot be kept in the browser) and, once the
 * store started it, the multipart upload whose missing parts a resumed run sends (ListParts).
 */
export interface PendingZip {
  /** Whose upload it is: on a shared computer, another account signed in here is not offered it. */
  userId: string;
  batchId: string;
  eventId: number;
  name: string;
  size: number;
  lastModified: number;
  multipart?: { key: string; uploadId: string };
}

const isText = (value: unknown): value is string => typeof value === "string" && value.length > 0;

function isPendingZip(value: unknown): value is PendingZip {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  const multipart = record.multipart as Record<string, unknown> | undefined;
  return (
    isText(record.userId) &&
    isText(record.batchId) &&
    Number.isInteger(record.eventId) &&
    Number.isInteger(record.size) &&
    typeof record.lastModified === "number" &&
    isText(record.name) &&
    (multipart === undefined ||
      (typeof multipart === "object" && multipart !== null && isText(multipart.key) && isText(multipart.uploadId)))
  );
}

type KeyValueStore = Pick<Storage, "getItem" | "setItem" | "removeItem">;

const storageKey = "dorsal:zip-en-curso";

/** The signed-in user's unfinished upload; another user's stays kept for them. */
export function loadPendingZip(userId: string, store: KeyValueStore = window.localStorage): PendingZip | null {
  const raw = store.getItem(storageKey);
  if (raw === null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isPendingZip(parsed)) return parsed.userId === userId ? parsed : null;
  } catch {
    // Not JSON: written by something else, worthless for resuming.
  }
  store.removeItem(storageKey);
  return null;
}

export function savePendingZip(pending: PendingZip, store: KeyValueStore = window.localStorage): void {
  store.setItem(storageKey, JSON.stringify(pending));
}

export function clearPendingZip(store: KeyValueStore = window.localStorage): void {
  store.removeItem(storageKey);
}

export function pendingZipFor(
  userId: string,
  file: Pick<File, "name" | "size" | "lastModified">,
  batch: { batchId: string; eventId: number },
): PendingZip {
  return {
    userId,
    batchId: batch.batchId,
    eventId: batch.eventId,
    name: file.name,
    size: file.size,
    lastModified: file.lastModified,
  };
}

/** The file picked again is the one the interrupted upload was sending: same name, size and date. */
export function isSameZip(pending: PendingZip, file: Pick<File, "name" | "size" | "lastModified">): boolean {
  return pending.name === file.name && pending.size === file.size && pending.lastModified === file.lastModified;
}

export function zipPickSameFileMessage(pending: PendingZip): string {
  return `Para reanudar, elige el mismo archivo: ${pending.name} (${formatBytes(pending.size)})`;
}
