import { isBibText, normaliseBib } from "@dorsal/shared";

/**
 * What the purchase screen starts from (spec §2.6): the `dorsal` and `eventId` query values and the
 * local-storage keys the search left behind, which are consumed (read once, then removed) so a
 * later visit does not resurrect an old cart.
 */
export interface PurchaseIntent {
  eventId: number | null;
  dorsalNumber: string | null;
  selectedPhotoIds: string[];
  userInfo: { name: string; email: string } | null;
}

export const purchaseStorageKeys = ["selectedPhotoIds", "eventId", "userInfo", "dorsalNumber"] as const;

function parseJson(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function positiveInt(value: unknown): number | null {
  const number = typeof value === "string" ? Number(value) : value;
  return typeof number === "number" && Number.isInteger(number) && number > 0 ? number : null;
}

export function consumePurchaseIntent(params: URLSearchParams, storage: Storage): PurchaseIntent {
  const stored = Object.fromEntries(purchaseStorageKeys.map((key) => [key, storage.getItem(key)]));
  for (const key of purchaseStorageKeys) storage.removeItem(key);

  const ids = parseJson(stored.selectedPhotoIds ?? null);
  const user = parseJson(stored.userInfo ?? null) as { name?: unknown; email?: unknown } | null;
  const dorsal = params.get("dorsal") ?? parseJson(stored.dorsalNumber ?? null) ?? stored.dorsalNumber;
  return {
    eventId: positiveInt(params.get("eventId")) ?? positiveInt(parseJson(stored.eventId ?? null)),
    dorsalNumber: typeof dorsal === "string" && isBibText(dorsal) ? normaliseBib(dorsal) : null,
    selectedPhotoIds: Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : [],
    userInfo:
      user && typeof user.name === "string" && typeof user.email === "string"
        ? { name: user.name, email: user.email }
        : null,
  };
}

/**
 * What the search stores before sending the visitor to the purchase screen; a declined payment
 * stores its cart and buyer too, so changing the photos starts from what was chosen and typed.
 */
export function storePurchaseIntent(
  storage: Storage,
  intent: {
    eventId: number;
    dorsalNumber: string;
    selectedPhotoIds: string[];
    userInfo?: { name: string; email: string };
  },
): void {
  storage.setItem("selectedPhotoIds", JSON.stringify(intent.selectedPhotoIds));
  storage.setItem("eventId", JSON.stringify(intent.eventId));
  storage.setItem("dorsalNumber", JSON.stringify(intent.dorsalNumber));
  if (intent.userInfo) storage.setItem("userInfo", JSON.stringify(intent.userInfo));
}
