import { describe, expect, it } from "vitest";
import { consumePurchaseIntent, purchaseStorageKeys, storePurchaseIntent } from "./purchase-intent";

function memoryStorage(): Storage {
  const values = new Map<string, string>();
  return {
    get length() {
      return values.size;
    },
    clear: () => values.clear(),
    getItem: (key) => values.get(key) ?? null,
    key: (index) => [...values.keys()][index] ?? null,
    removeItem: (key) => void values.delete(key),
    setItem: (key, value) => void values.set(key, value),
  };
}

describe("purchase intent", () => {
  it("reads what the search stored and removes it", () => {
    const storage = memoryStorage();
    storePurchaseIntent(storage, { eventId: 7, dorsalNumber: "5173", selectedPhotoIds: ["a", "b"] });
    const intent = consumePurchaseIntent(new URLSearchParams(), storage);
    expect(intent).toEqual({ eventId: 7, dorsalNumber: "5173", selectedPhotoIds: ["a", "b"], userInfo: null });
    for (const key of purchaseStorageKeys) expect(storage.getItem(key)).toBeNull();
  });

  it("prefers the query values and ignores a bib that is not a number", () => {
    const storage = memoryStorage();
    storage.setItem("eventId", "3");
    const fromQuery = consumePurchaseIntent(new URLSearchParams({ dorsal: "42", eventId: "9" }), storage);
    expect(fromQuery).toMatchObject({ eventId: 9, dorsalNumber: "42" });
    // A letter bib as printed, whatever the case the link carries.
    expect(consumePurchaseIntent(new URLSearchParams({ dorsal: "m10380" }), memoryStorage())).toMatchObject({
      dorsalNumber: "M10380",
    });
    const invalid = consumePurchaseIntent(new URLSearchParams({ dorsal: "abc" }), memoryStorage());
    expect(invalid).toMatchObject({ eventId: null, dorsalNumber: null, selectedPhotoIds: [] });
  });

  it("restores a declined payment's cart and buyer", () => {
    const storage = memoryStorage();
    const userInfo = { name: "Ana Gómez", email: "ana@example.com" };
    storePurchaseIntent(storage, { eventId: 7, dorsalNumber: "5173", selectedPhotoIds: ["a"], userInfo });
    expect(consumePurchaseIntent(new URLSearchParams(), storage)).toEqual({
      eventId: 7,
      dorsalNumber: "5173",
      selectedPhotoIds: ["a"],
      userInfo,
    });
  });

  it("keeps the customer's stored name and email, and survives corrupt values", () => {
    const storage = memoryStorage();
    storage.setItem("userInfo", JSON.stringify({ name: "Ana Gómez", email: "ana@example.com", dorsalNumber: "1" }));
    storage.setItem("selectedPhotoIds", "{not json");
    const intent = consumePurchaseIntent(new URLSearchParams(), storage);
    expect(intent.userInfo).toEqual({ name: "Ana Gómez", email: "ana@example.com" });
    expect(intent.selectedPhotoIds).toEqual([]);
  });
});
