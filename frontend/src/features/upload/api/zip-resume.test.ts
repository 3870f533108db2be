import { describe, expect, it } from "vitest";
import {
  clearPendingZip,
  isSameZip,
  loadPendingZip,
  type PendingZip,
  pendingZipFor,
  savePendingZip,
  zipPickSameFileMessage,
} from "./zip-resume";

function memoryStore() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

const file = { name: "carrera.zip", size: 2_000_000_000, lastModified: 1_764_000_000_000 };
const pending: PendingZip = {
  ...pendingZipFor("u-admin", file, { batchId: "zb-1", eventId: 7 }),
  multipart: { key: "uploads/zips/zb-1.zip", uploadId: "u-1" },
};

describe("the unfinished ZIP upload kept in the browser", () => {
  it("is read back as it was saved, and is gone once cleared", () => {
    const store = memoryStore();
    expect(loadPendingZip("u-admin", store)).toBeNull();
    savePendingZip(pending, store);
    expect(loadPendingZip("u-admin", store)).toEqual(pending);
    clearPendingZip(store);
    expect(loadPendingZip("u-admin", store)).toBeNull();
  });

  it("is offered only to the user who started it, and kept for them", () => {
    const store = memoryStore();
    savePendingZip(pending, store);
    expect(loadPendingZip("u-otro", store)).toBeNull();
    expect(loadPendingZip("u-admin", store)).toEqual(pending);
  });

  it("drops what it cannot use: not JSON, or a record missing its batch or multipart id", () => {
    for (const raw of [
      "{",
      JSON.stringify({ ...pending, batchId: "" }),
      JSON.stringify({ ...pending, userId: undefined }),
      JSON.stringify({ ...pending, eventId: "7" }),
      JSON.stringify({ ...pending, multipart: { key: "k" } }),
    ]) {
      const store = memoryStore();
      store.setItem("dorsal:zip-en-curso", raw);
      expect(loadPendingZip("u-admin", store)).toBeNull();
      expect(store.items.size).toBe(0);
    }
  });

  it("recognises the same file by name, size and date, and names it when another is picked", () => {
    expect(isSameZip(pending, { ...file })).toBe(true);
    expect(isSameZip(pending, { ...file, lastModified: file.lastModified + 1 })).toBe(false);
    expect(isSameZip(pending, { ...file, size: file.size - 1 })).toBe(false);
    expect(isSameZip(pending, { ...file, name: "otra.zip" })).toBe(false);
    expect(zipPickSameFileMessage(pending)).toMatch(/^Para reanudar, elige el mismo archivo: carrera\.zip \(.+ MB\)$/);
  });
});
