import { createEventRequest } from "@dorsal/shared/staff-requests";
import { describe, expect, it } from "vitest";
import { createMemoryDrive } from "../adapters/memory/drive";
import { makeBibPhoto } from "../preflight/probe-photo";
import { memoryContainer } from "../testing/memory-container";
import { driveAuthUrl, driveCallback, startDriveImport } from "./drive";
import { drivePhotoId, importDriveFolder } from "./drive-import";
import { createEvent } from "./events";
import type { SessionClaims } from "./tokens";
import { pendingPhoto } from "./uploads";
import { resumeZipBatches } from "./zip-batches";

const admin: SessionClaims = { userId: "admin-1", email: "admin@dorsal.test", role: "admin" };

/** Prepare: an admin whose drive (held in memory) is connected, with a folder of three photos. */
async function world() {
  const drive = createMemoryDrive();
  const photos = await Promise.all(["11", "22", "33"].map((bib) => makeBibPhoto(bib, { width: 320, height: 240 })));
  drive.addFolder(
    "carpeta1",
    "Llegada",
    photos.map((bytes, index) => ({ id: `archivo${index}`, name: `meta-${index}.jpg`, bytes })),
  );
  const { deps, logger } = await memoryContainer({ drive });
  const event = await createEvent(deps, createEventRequest.parse({ name: "Carrera Drive", date: "2026-12-06" }));
  const state = new URL((await driveAuthUrl(deps, admin, {})).authUrl).searchParams.get("state") ?? "";
  expect(await driveCallback(deps, { code: `codigo-${state}`, state })).toBe("success");
  return { deps, logger, drive, event };
}

/** A drive import stopped by a restart goes on where it was, and never brings a file twice. */
describe("drive import after a restart", () => {
  it("resumes an interrupted import: what arrived is counted, only the rest is downloaded", async () => {
    const { deps, logger, drive, event } = await world();
    const { batchId } = await startDriveImport(deps, admin, event.id, "carpeta1");
    // The process died mid-import: the batch was extracting and the first file had arrived.
    await deps.zipBatches.startExtracting(batchId, deps.clock.now());
    const first = pendingPhoto(deps, admin, event.id, "meta-0.jpg", {
      id: drivePhotoId(event.id, "archivo0"),
      zip: { batchId, entry: 0 },
    });
    await deps.photos.createPending(first);
    const bytes = (await drive.download("memoria-acceso", "archivo0")) as AsyncIterable<Buffer>;
    const chunks: Buffer[] = [];
    for await (const chunk of bytes) chunks.push(chunk);
    await deps.objects.put("originals", first.originalKey, Buffer.concat(chunks), "image/jpeg");
    drive.downloads.length = 0;

    const resumed = await resumeZipBatches(deps, logger);

    expect(resumed).toBe(1);
    expect(drive.downloads.sort()).toEqual(["archivo1", "archivo2"]);
    expect(await deps.zipBatches.get(batchId)).toMatchObject({
      status: "processing",
      totalFiles: 3,
      extractedFiles: 3,
      skippedFiles: 0,
    });
    // Its start is gone; a late copy of the storage event finds the batch past extraction.
    expect(await deps.objects.head("originals", `uploads/zips/${batchId}.drive`)).toBeUndefined();
    drive.downloads.length = 0;
    await importDriveFolder(deps, logger, batchId);
    expect(drive.downloads).toEqual([]);
  });
});
