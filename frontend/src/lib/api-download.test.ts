import { adminApi } from "@dorsal/shared/contract/admin";
import { afterEach, describe, expect, it, vi } from "vitest";
import { apiDownload } from "./api-download";
import { ApiError } from "./api-fetch";

describe("apiDownload", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("answers the file's bytes under the name the server gave them, and the server's reason when it refuses", async () => {
    const urls: string[] = [];
    const answers = [
      new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), {
        headers: {
          "content-type": "application/pdf",
          "content-disposition": 'attachment; filename="estadisticas-todos-2026-11-27.pdf"',
        },
      }),
      new Response(JSON.stringify({ success: false, error: "No tienes permiso para realizar esta acción" }), {
        status: 403,
      }),
    ];
    vi.stubGlobal("fetch", async (url: string) => {
      urls.push(url);
      return answers.shift();
    });
    const file = await apiDownload(adminApi.analyticsReport, { query: { range: "7d", eventId: undefined } });
    expect(urls[0]).toBe("/api/analytics/report?range=7d");
    expect(file.filename).toBe("estadisticas-todos-2026-11-27.pdf");
    expect([...new Uint8Array(await file.blob.arrayBuffer())]).toEqual([0x25, 0x50, 0x44, 0x46]);
    const refused = apiDownload(adminApi.analyticsReport, { query: { range: "24h", eventId: 3 } });
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toThrow("No tienes permiso para realizar esta acción");
  });
});
