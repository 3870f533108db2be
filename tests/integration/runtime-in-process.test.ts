import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { EventDto } from "@dorsal/shared";
import { afterAll, describe, expect, it } from "vitest";
import { type Runtime, startRuntime } from "../../functions/local/runtime";
import { adminToken, apiClient } from "../support/api";
import { testAdmin } from "../support/test-admin";

/**
 * `startRuntime` is a function of its settings: two runtimes share this process, each with its own
 * stores, admin and port, and the process's environment is left as it was.
 */
describe("startRuntime in process", () => {
  const dataDirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  const start = async (adminEmail: string): Promise<Runtime> => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-in-process-"));
    dataDirs.push(dataDir);
    return startRuntime({
      PORT: "0",
      DATA_DIR: dataDir,
      ADMIN_EMAIL: adminEmail,
      ADMIN_PASSWORD: testAdmin.password,
      LOG_LEVEL: "silent",
    });
  };

  it("runs two runtimes side by side without touching process.env, and closes each", async () => {
    const environment = { ...process.env };
    const first = await start("uno@dorsal.test");
    const second = await start("dos@dorsal.test");
    try {
      expect(process.env).toEqual(environment);
      expect(first.port).not.toBe(second.port);
      expect(first.admin).toEqual({ email: "uno@dorsal.test", created: true });
      expect(first.paymentSandboxUrl).toBe(`${first.url}/sandbox/wompi/p/`);

      const login = (runtime: Runtime, email: string) =>
        adminToken({ url: runtime.url, adminEmail: email, adminPassword: testAdmin.password });
      const firstAdmin = apiClient(first.url, await login(first, "uno@dorsal.test"));
      const created = await firstAdmin.post<EventDto>("/api/events", {
        name: "Solo en el primero",
        date: "2026-12-06",
      });
      expect(created.status).toBe(201);
      // Each has its own store and its own signing key: the second knows neither the event nor the session.
      const secondAdmin = apiClient(second.url, await login(second, "dos@dorsal.test"));
      expect((await secondAdmin.get<EventDto[]>("/api/events")).body).toEqual([]);
      expect((await firstAdmin.get<EventDto[]>("/api/events")).body.map((event) => event.id)).toEqual([
        created.body.id,
      ]);
      const borrowed = apiClient(second.url, await login(first, "uno@dorsal.test"));
      expect((await secondAdmin.get("/api/users")).status).toBe(200);
      expect((await borrowed.get("/api/users")).status).toBe(401);
    } finally {
      await first.close();
      await second.close();
    }
    await expect(fetch(`${first.url}/api/settings`)).rejects.toThrow();
    expect(await second.close()).toBeUndefined();
  });
});
