import { describe, expect, it } from "vitest";
import { createSignedUrlCache, type UrlCacheReport, urlCacheReportEveryMs } from "./signed-url-cache";

const hour = 3600;

function harness(maxEntries = 100) {
  let now = Date.parse("2026-11-29T08:00:00.400Z");
  const signed: { key: string; expiresAt: Date; signedAt: Date }[] = [];
  const reports: UrlCacheReport[] = [];
  const cache = createSignedUrlCache({
    clock: () => new Date(now),
    maxEntries,
    report: (report) => reports.push(report),
  });
  const sign = (key: string) => async (expiresAt: Date, signedAt: Date) => {
    signed.push({ key, expiresAt, signedAt });
    return `https://store/${key}?expires=${expiresAt.getTime()}&n=${signed.length}`;
  };
  return {
    url: (key: string, bucket: "derived" | "originals" = "derived", ttl = hour) =>
      cache.get(bucket, key, ttl, sign(key)),
    advance: (seconds: number) => {
      now += seconds * 1000;
    },
    now: () => now,
    signed,
    reports,
  };
}

describe("signed URL cache", () => {
  it("hands out one URL per derived image while it stays valid for the whole asked lifetime", async () => {
    const h = harness();
    for (let step = 0; step < 20; step += 1) {
      const url = await h.url("eventos/1/muestras/a.jpg");
      const expiresAt = Number(new URL(url).searchParams.get("expires"));
      // The promise: valid at least the asked hour from the moment it is handed out...
      expect(expiresAt).toBeGreaterThanOrEqual(h.now() + hour * 1000);
      // ...and never much longer than asked: at most a quarter more from its signing.
      for (const entry of h.signed)
        expect(entry.expiresAt.getTime() - entry.signedAt.getTime()).toBeLessThanOrEqual(1.25 * hour * 1000);
      h.advance(37);
    }
    // 20 requests over 12 min: one 15-minute window, or two across a boundary; never one signature each.
    expect(h.signed.length).toBeLessThanOrEqual(2);
  });

  it("signs again once the cached URL could no longer cover the asked lifetime", async () => {
    const h = harness();
    const first = await h.url("k");
    h.advance(hour / 4 + 1);
    const later = await h.url("k");
    expect(later).not.toBe(first);
    expect(h.signed).toHaveLength(2);
  });

  it("never reuses a URL of an original: each download gets its own, with exactly the asked lifetime", async () => {
    const h = harness();
    await h.url("eventos/1/originales/a.jpg", "originals", 120);
    await h.url("eventos/1/originales/a.jpg", "originals", 120);
    expect(h.signed).toHaveLength(2);
    for (const { expiresAt, signedAt } of h.signed) expect(expiresAt.getTime() - signedAt.getTime()).toBe(120_000);
  });

  it("keeps different keys and lifetimes apart and forgets the least recently used past its bound", async () => {
    const h = harness(2);
    const a = await h.url("a");
    expect(await h.url("b")).not.toBe(a);
    expect(await h.url("a", "derived", 2 * hour)).not.toBe(a);
    expect(h.signed).toHaveLength(3);
    // Bound 2: "a" (1 h) was the least recently used and is gone.
    await h.url("a");
    expect(h.signed).toHaveLength(4);
  });

  it("does not keep a failed signature", async () => {
    const h = harness();
    const cache = createSignedUrlCache({ clock: () => new Date(h.now()), maxEntries: 10 });
    await expect(cache.get("derived", "k", hour, () => Promise.reject(new Error("key unavailable")))).rejects.toThrow();
    expect(await cache.get("derived", "k", hour, async () => "signed")).toBe("signed");
  });

  it("reports its hits, misses and evictions since the last report, and its size, once a period at most", async () => {
    const h = harness(2);
    await h.url("a.jpg");
    await h.url("a.jpg");
    await h.url("b.jpg");
    await h.url("c.jpg");
    expect(h.reports).toEqual([]);

    h.advance(urlCacheReportEveryMs / 1000);
    await h.url("c.jpg");
    h.advance(1);
    await h.url("c.jpg");

    expect(h.reports).toHaveLength(1);
    const [report] = h.reports;
    expect(report).toMatchObject({ hits: 1, misses: 3, evictions: 1, entries: 2 });
    // The two URLs it holds, b's and c's, by their length.
    expect(report?.bytes).toBe((await h.url("b.jpg")).length + (await h.url("c.jpg")).length);
  });
});
