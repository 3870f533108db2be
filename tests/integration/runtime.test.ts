import { mkdtemp, readFile, rm } from "node:fs/promises";
import { type IncomingHttpHeaders, request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { EventDto, PresignResponse, SearchResponse } from "@dorsal/shared";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { runtimeBundleEntry } from "../../functions/local/bundle";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { apiClient, waitFor } from "../support/api";
import { distDir } from "../support/first-load";
import { freshBundleVariable } from "../support/runtime-bundle";
import { startDorsal } from "../support/server";

/** fetch() would decompress and normalise the path; the encoding and path tests need the bytes as sent. */
function rawRequest(
  base: string,
  requestPath: string,
  headers: Record<string, string>,
  method = "GET",
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const sent = request(new URL(base), { method, path: requestPath, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on("error", reject);
    });
    sent.on("error", reject);
    sent.end();
  });
}

/** What `npm start` promises beyond the API: first-start admin, data kept across restarts, clean Ctrl-C. */
describe("embedded runtime lifecycle", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it("is bundled once for the whole test run, by its global setup, from this checkout", async () => {
    expect(process.env[freshBundleVariable]).toBe(runtimeBundleEntry);
    expect((await readFile(runtimeBundleEntry, "utf8")).length).toBeGreaterThan(0);
  });

  it("prints a generated admin password once, keeps everything across a restart, and stops cleanly", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-restart-"));
    dirs.push(dataDir);

    const first = await startDorsal({ dataDir, generatedAdminPassword: true });
    // The test stops it half-way; a failure before that would leave it running past the test run.
    onTestFinished(() => first.kill());
    // Resolves only once the line is there, with a password of one character or more.
    const [, password = ""] = await first.printed(/contraseña: (\S+)/);
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
      // Its whole start-up banner, so that a password printed after all would be seen.
      await second.printed(/la contraseña se mostró en el primer arranque/);
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

  it("serves the frontend like CloudFront (SPA fallback, compressed, cached by name) and unknown API paths as JSON 404", async () => {
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

      // Compressed as the browser accepts; hashed assets cached for good, the rest revalidated.
      const chromium = "gzip, deflate, br, zstd";
      const shell = await rawRequest(dorsal.url, "/search", { "accept-encoding": chromium });
      expect(shell.status).toBe(200);
      expect(shell.headers).toMatchObject({
        "content-encoding": "br",
        vary: "Accept-Encoding",
        "cache-control": "no-cache",
        "content-type": "text/html; charset=utf-8",
        "x-content-type-options": "nosniff",
        "x-frame-options": "DENY",
      });
      expect(shell.headers["content-security-policy"]).toContain("script-src 'self'");
      const html = brotliDecompressSync(shell.body).toString();
      expect(html).toContain('<div id="root">');
      const unchangedShell = await rawRequest(dorsal.url, "/", {
        "accept-encoding": chromium,
        "if-none-match": String(shell.headers.etag),
      });
      expect(unchangedShell).toMatchObject({ status: 304, body: Buffer.alloc(0) });
      expect(unchangedShell.headers).toMatchObject({ etag: shell.headers.etag, "cache-control": "no-cache" });

      // The entry is a few import lines; the chunks it preloads are the code worth compressing.
      const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1] ?? "");
      const sizes = await Promise.all(
        scripts.map(async (script) => (await readFile(path.join(distDir, script))).length),
      );
      const entry = scripts[sizes.indexOf(Math.max(...sizes))] ?? "";
      const onDisk = await readFile(path.join(distDir, entry));
      const asBrotli = await rawRequest(dorsal.url, entry, { "accept-encoding": chromium });
      expect(asBrotli.headers).toMatchObject({
        "content-encoding": "br",
        vary: "Accept-Encoding",
        "cache-control": "public, max-age=31536000, immutable",
        "content-type": "text/javascript; charset=utf-8",
        "content-length": String(asBrotli.body.length),
      });
      expect(asBrotli.body.length).toBeLessThan(onDisk.length / 2);
      expect(brotliDecompressSync(asBrotli.body)).toEqual(onDisk);
      for (const accept of ["gzip", "br;q=0, gzip;q=0.8", "deflate, gzip;q=0.5"]) {
        const asGzip = await rawRequest(dorsal.url, entry, { "accept-encoding": accept });
        expect(asGzip.headers["content-encoding"], accept).toBe("gzip");
        expect(gunzipSync(asGzip.body)).toEqual(onDisk);
      }
      for (const accept of [undefined, "identity", "br;q=0, gzip;q=0"]) {
        const plain = await rawRequest(dorsal.url, entry, accept ? { "accept-encoding": accept } : {});
        expect(plain.headers["content-encoding"], accept).toBeUndefined();
        expect(plain.body).toEqual(onDisk);
      }

      const head = await rawRequest(dorsal.url, entry, { "accept-encoding": chromium }, "HEAD");
      expect(head).toMatchObject({ status: 200, body: Buffer.alloc(0) });
      expect(head.headers).toMatchObject({
        "content-encoding": "br",
        "content-length": String(asBrotli.body.length),
        etag: asBrotli.headers.etag,
      });
      const unchanged = await rawRequest(dorsal.url, entry, {
        "accept-encoding": chromium,
        "if-none-match": `W/"elsewhere", ${asBrotli.headers.etag}`,
      });
      expect(unchanged).toMatchObject({ status: 304, body: Buffer.alloc(0) });
      // Each encoding is its own representation: a gzip copy's tag does not validate the brotli one.
      const gzipTag = (await rawRequest(dorsal.url, entry, { "accept-encoding": "gzip" })).headers.etag;
      expect(gzipTag).not.toBe(asBrotli.headers.etag);
      const otherCopy = await rawRequest(dorsal.url, entry, {
        "accept-encoding": chromium,
        "if-none-match": String(gzipTag),
      });
      expect(otherCopy.status).toBe(200);

      // Files outside /assets have stable names: revalidated, not cached for a year.
      const icon = await rawRequest(dorsal.url, "/favicon.svg", { "accept-encoding": chromium });
      expect(icon.headers).toMatchObject({ "cache-control": "no-cache", "content-type": "image/svg+xml" });

      // A missing file is not a page (a stale chunk must fail as such); the manifest, the
      // compressed copies and anything outside the build are not served at all.
      for (const hidden of [
        "/assets/index-gone.js",
        "/.vite/manifest.json",
        `${entry}.br`,
        "/../package.json",
        "/%2e%2e/%2e%2e/package.json",
        "/assets/..%2f..%2f..%2fpackage.json",
      ]) {
        const refused = await rawRequest(dorsal.url, hidden, { "accept-encoding": chromium });
        expect(refused.status, hidden).toBe(404);
        expect(refused.body.toString(), hidden).not.toContain('"workspaces"');
      }
      const posted = await rawRequest(dorsal.url, "/search", {}, "POST");
      expect(posted.status).toBe(405);
      expect(posted.headers.allow).toBe("GET, HEAD");
    } finally {
      await dorsal.stop();
    }
  });
});
