import type { EventDto, SearchResponse, UploadHistoryDto, ZipBatchStatusResponse } from "@dorsal/shared";
import {
  type DriveAuthAnswer,
  type DriveFoldersAnswer,
  type DriveImportAnswer,
  type DrivePhotosAnswer,
  driveMessages,
} from "@dorsal/shared/drive";
import { beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiClient, photographerClient, waitFor } from "../support/api";
import { sharedDorsal } from "../support/server";

type Client = ReturnType<typeof apiClient>;

/**
 * Cloud-drive folder import through the runtime, offline: the Google Drive adapter talks OAuth 2.0
 * with PKCE and Drive v3 to the runtime's own stand-in (functions/local/drive-sandbox.ts), which
 * serves its generated race photos. Connect, list, preview, import into the ordinary upload path,
 * and the refusals: a state or verifier that is not the one given out, a second import, a wrong role.
 */
describe("drive import", () => {
  const dorsal = sharedDorsal();
  let admin: Client;
  let event: EventDto;

  beforeAll(async () => {
    admin = apiClient(dorsal.url, await adminToken(dorsal));
    event = (await admin.post<EventDto>("/api/events", { name: "Carrera Drive", date: "2026-12-13" })).body;
    await admin.post("/api/drive/reset");
  });

  /** Asks the API for an authorization URL; what the popup would open. */
  const authorization = async (query = "") => {
    const answer = await admin.get<DriveAuthAnswer>(`/api/drive/auth${query}`);
    expect(answer.status).toBe(200);
    return new URL(answer.body.authUrl);
  };
  /** The stand-in's 'Autorizar' (or 'Cancelar'): the redirect back to our callback, with a code. */
  const decide = async (authUrl: URL, decision: "allow" | "deny") => {
    const page = await fetch(authUrl);
    expect(await page.text()).toContain("Autorizar");
    const form = new URLSearchParams(authUrl.searchParams);
    form.set("decision", decision);
    const answer = await fetch(new URL(authUrl.pathname, authUrl), { method: "POST", body: form, redirect: "manual" });
    expect(answer.status).toBe(302);
    return new URL(answer.headers.get("location") ?? "");
  };
  /** The callback as the popup reaches it: where it is sent back to. */
  const callback = async (back: URL) => {
    const answer = await fetch(new URL(`${back.pathname}${back.search}`, dorsal.url), { redirect: "manual" });
    expect(answer.status).toBe(302);
    return answer.headers.get("location");
  };

  it("connects through the authorization page with PKCE, refusing a foreign state or verifier", async () => {
    expect((await admin.get<DriveFoldersAnswer>("/api/drive/folders")).body).toEqual({ connected: false, folders: [] });

    const first = await authorization("?email=organizador%40dorsal.test&clean=true");
    expect(first.searchParams.get("code_challenge_method")).toBe("S256");
    expect(first.searchParams.get("redirect_uri")).toBe(`${dorsal.url}/api/drive/callback`);
    expect(first.searchParams.get("login_hint")).toBe("organizador@dorsal.test");
    expect(first.searchParams.get("prompt")).toContain("select_account");

    // A code redeemed under another authorization's state: that state's verifier does not match
    // the code's challenge, and the provider refuses it.
    const second = await authorization();
    const codeOfFirst = await decide(first, "allow");
    codeOfFirst.searchParams.set("state", second.searchParams.get("state") ?? "");
    expect(await callback(codeOfFirst)).toBe("/upload?drive_auth=error");
    // A state nobody gave out, and a cancelled authorization.
    const third = await authorization();
    const forged = await decide(third, "allow");
    forged.searchParams.set("state", "inventado");
    expect(await callback(forged)).toBe("/upload?drive_auth=error");
    expect(await callback(await decide(await authorization(), "deny"))).toBe("/upload?drive_auth=error");
    expect((await admin.get<DriveFoldersAnswer>("/api/drive/folders")).body.connected).toBe(false);

    const granted = await decide(await authorization(), "allow");
    expect(await callback(granted)).toBe("/upload?drive_auth=success");
    // Each state works once.
    expect(await callback(granted)).toBe("/upload?drive_auth=error");
  });

  let arrival: { id: string; name: string };

  it("lists the folders and previews 12 photos of one, with how many it holds", async () => {
    const folders = await admin.get<DriveFoldersAnswer>("/api/drive/folders");
    expect(folders.body.connected).toBe(true);
    expect(folders.body.folders.map((folder) => folder.name)).toEqual([
      "Carrera 10K - Llegada",
      "Carrera 10K - Salida",
    ]);
    [arrival] = folders.body.folders as [{ id: string; name: string }];
    const start = folders.body.folders[1] as { id: string };

    const preview = await admin.get<DrivePhotosAnswer>(`/api/drive/folders/${start.id}/photos`);
    expect(preview.body.total).toBe(15);
    expect(preview.body.photos).toHaveLength(12);
    expect(preview.body.photos[0]).toEqual({
      id: expect.any(String),
      name: "dorsal-100.jpg",
      size: expect.stringMatching(/^\d+$/),
    });
    expect(
      (await admin.get(`/api/drive/folders/${Buffer.from("no-existe").toString("base64url")}/photos`)).status,
    ).toBe(404);
  });

  const finished = (batchId: string) =>
    waitFor(
      async () => {
        const status = await admin.get<ZipBatchStatusResponse>(`/api/photos/batch-status/${batchId}`);
        return status.body.status === "completed" || status.body.status === "error" ? status.body : undefined;
      },
      120_000,
      "the drive import to finish",
    );

  it("imports a folder into the event through the upload path, once", async () => {
    const started = await admin.post<DriveImportAnswer>(`/api/drive/import/${event.id}`, { folderId: arrival.id });
    expect(started.status).toBe(200);
    expect(started.body.totalFiles).toBe(3);
    const batch = await finished(started.body.batchId);
    expect(batch).toMatchObject({
      status: "completed",
      totalFiles: 3,
      extractedFiles: 3,
      processedFiles: 3,
      skippedFiles: 0,
    });

    const found = await admin.get<SearchResponse>(`/api/photos/search?eventId=${event.id}&dorsalNumber=4821`);
    expect(found.body.totalFound).toBe(1);
    expect(found.body.photos[0]?.originalFilename).toBe("dorsal-4821.jpg");
    const history = (await admin.get<UploadHistoryDto>("/api/photos/my-uploads")).body.uploads;
    expect(history.find((upload) => upload.uploadId === started.body.batchId)).toMatchObject({
      kind: "zip",
      fromDrive: true,
      fileName: "Carrera 10K - Llegada",
      extractedFiles: 3,
    });

    // The same folder again: every file is known, nothing is brought twice.
    const again = await admin.post<DriveImportAnswer>(`/api/drive/import/${event.id}`, { folderId: arrival.id });
    const second = await finished(again.body.batchId);
    expect(second).toMatchObject({ status: "completed", extractedFiles: 0, processedFiles: 0, skippedFiles: 3 });
    expect(second.skipped.map((entry) => entry.reason)).toEqual(Array(3).fill(driveMessages.alreadyImported));
    expect((await admin.get<EventDto>(`/api/events/${event.id}`)).body.photoCount).toBe(3);
  });

  it("refuses a folder without choosing one, other roles, and an account with no drive", async () => {
    const noFolder = await admin.post<{ error: string }>(`/api/drive/import/${event.id}`, { folderId: "" });
    expect(noFolder.status).toBe(400);
    expect(JSON.stringify(noFolder.body)).toContain(driveMessages.selectFolder);

    const photographer = await photographerClient(dorsal.url, admin, {
      name: "Fotógrafo Drive",
      email: "drive.foto@dorsal.test",
      password: "secreto1",
      eventId: event.id,
    });
    expect((await photographer.get("/api/drive/folders")).status).toBe(403);
    expect((await photographer.post(`/api/drive/import/${event.id}`, { folderId: arrival.id })).status).toBe(403);

    expect((await admin.post("/api/drive/reset")).status).toBe(200);
    expect((await admin.get<DriveFoldersAnswer>("/api/drive/folders")).body.connected).toBe(false);
    const disconnected = await admin.post<{ error: string }>(`/api/drive/import/${event.id}`, { folderId: arrival.id });
    expect(disconnected.status).toBe(409);
    expect(disconnected.body.error).toBe(driveMessages.notConnected);
  });
});
