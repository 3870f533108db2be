import { afterEach, describe, expect, it, vi } from "vitest";
import { reindexEvent } from "./reindex-event";

function answer(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
}

describe("reindexEvent", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("follows the cursor to the end, adding up the pages", async () => {
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(answer({ processed: 100, changed: 3, cursor: "p2" }))
      .mockResolvedValueOnce(answer({ processed: 20, changed: 1, cursor: null }));
    vi.stubGlobal("fetch", fetch);
    const seen: unknown[] = [];

    const result = await reindexEvent(7, (progress) => seen.push(progress), new AbortController().signal);

    expect(result).toEqual({ pages: 2, processed: 120, changed: 4, complete: true });
    expect(seen).toEqual([
      { pages: 1, processed: 100, changed: 3 },
      { pages: 2, processed: 120, changed: 4 },
    ]);
    expect(fetch.mock.calls.map(([url, init]) => [url, JSON.parse(init.body)])).toEqual([
      ["/api/events/7/reindex", { cursor: null }],
      ["/api/events/7/reindex", { cursor: "p2" }],
    ]);
  });

  it("stops between pages when cancelled and says it did not finish", async () => {
    const abort = new AbortController();
    const fetch = vi.fn().mockResolvedValue(answer({ processed: 100, changed: 0, cursor: "next" }));
    vi.stubGlobal("fetch", fetch);

    const result = await reindexEvent(7, () => abort.abort(), abort.signal);

    expect(fetch).toHaveBeenCalledTimes(1);
    expect(result).toEqual({ pages: 1, processed: 100, changed: 0, complete: false });
  });
});
