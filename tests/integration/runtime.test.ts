import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { EventDto, PresignResponse, SearchResponse } from "@dorsal/shared";
import { afterAll, describe, expect, it } from "vitest";
import { apiClient, waitFor } from "../support/api";
import { makeBibPhoto } from "../support/bib-photo";
import { startDorsal } from "../support/server";

/** What `npm start` promises beyond the API: first-start admin, data kept across restarts, clean Ctrl-C. */
describe("embedded runtime lifecycle", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it("prints a generated admin password once, keeps everything across a restart, and stops cleanly", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-restart-"));
    dirs.push(dataDir);

    const first = await startDorsal({ dataDir, generatedAdminPassword: true });
    const printed = /contraseña: (\S+)/.exec(first.output());
    expect(printed?.[1]).toBeTruthy();
    const password = printed?.[1] as string;
    const login = await apiClient(first.url).post<{ token: string }>("/api/auth/login", {
      email: first.adminEmail,
      password,
    });
    expect(login.status).toBe(200);
    const admin = apiClient(first.url, login.body.token);
    const event = (await admin.post<EventDto>("/api/events", { name: "Carrera 10K", date: "2026-12-06" })).body;
    const photo = await makeBibPhoto("2207");
    const [upload] = (
      await admin.post<PresignResponse>("/api/photos/presign", {
        eventId: event.id,
        files: [{ filename: "2207.jpg", contentType: "image/jpeg", size: photo.length }],
      })
    ).body.uploads;
    if (!upload) throw new Error("no upload URL");
    expect((await fetch(upload.url, { method: "PUT", headers: upload.headers, body: photo })).status).toBe(200);
    const search = `/api/photos/search?eventId=${event.id}&dorsalNumber=2207`;
    await waitFor(
      async () => ((await admin.get<SearchResponse>(search)).body.totalFound === 1 ? true : undefined),
      60_000,
      "the photo to be searchable",
    );
    expect(await first.stop()).toBe(0);

    const second = await startDorsal({ dataDir, generatedAdminPassword: true });
    try {
      expect(second.output()).not.toContain(password);
      const again = await apiClient(second.url).post("/api/auth/login", { email: second.adminEmail, password });
      expect(again.status).toBe(200);
      const events = await apiClient(second.url).get<EventDto[]>("/api/events");
      expect(events.body.map((e) => e.name)).toEqual(["Carrera 10K"]);
      const found = await apiClient(second.url).get<SearchResponse>(search);
      expect(found.body.totalFound).toBe(1);
      const thumbnail = found.body.photos[0]?.thumbnailUrl;
      expect(thumbnail && (await fetch(thumbnail)).status).toBe(200);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it("serves the frontend with an SPA fallback and answers unknown API paths with JSON 404", async () => {
    const dorsal = await startDorsal();
    try {
      for (const page of ["/", "/admin-login", "/events/unknown/deep/link"]) {
        const response = await fetch(new URL(page, dorsal.url));
        expect(response.status).toBe(200);
        expect(await response.text()).toContain('<div id="root">');
      }
      const missing = await fetch(new URL("/api/no-such-thing", dorsal.url));
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ success: false });
    } finally {
      await dorsal.stop();
    }
  });
});
