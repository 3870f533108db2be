import { randomBytes } from "node:crypto";
import type { Readable } from "node:stream";
import { type DownloadZip, salesMessages } from "@dorsal/shared";
import yazl from "yazl";
import type { PhotoRecord } from "../data/photos";
import type { Deps } from "./deps";
import { unavailable } from "./errors";
import { downloadZipKey, downloadZipPrefix } from "./storage-paths";

/**
 * 'Descargar todas' as ONE file: phones (Safari above all) block a page that starts a download
 * per photo, and a ZIP of 20 originals is one tap.
 *
 * The ZIP is written to the object store and the buyer gets a short-lived signed URL of it, the
 * same way each original is handed out. Streaming it in the HTTP answer would not work on AWS:
 * a Lambda answer behind API Gateway is buffered and capped at 6 MB, less than one original. The
 * entries are stored, not deflated (JPEGs do not shrink), so the ZIP's exact size is known before
 * the first byte and the originals stream from storage into the ZIP without being held in memory.
 */

/** The browser follows the URL at once; ten minutes covers a slow phone and a second tap. */
export const downloadZipTtlSeconds = 600;

type ZipDeps = Pick<Deps, "objects" | "urls" | "downloadCounts" | "clock" | "logger">;

export interface ZipGrant {
  /** The partition of the grant's per-photo download counters (a paid sale's or a code's). */
  partition: string;
  maxDownloads: number;
  /** The file's name before `.zip`, e.g. "fotos Maratón de Bogotá dorsal 5173". */
  title: string;
}

/**
 * The names inside the ZIP: the photographer's file names, without any folder, control or
 * reserved characters, and unique ignoring case (phones' file systems compare names that way).
 */
export function zipEntryNames(filenames: readonly string[]): string[] {
  const taken = new Set<string>();
  return filenames.map((raw, index) => {
    const base = (raw.split(/[\\/]/).pop() ?? "").replace(/[\p{Cc}<>:"|?*]/gu, "_").trim();
    const safe = base && !/^\.+$/.test(base) ? base : `foto-${index + 1}.jpg`;
    const dot = safe.lastIndexOf(".");
    const stem = dot > 0 ? safe.slice(0, dot) : safe;
    const extension = dot > 0 ? safe.slice(dot) : "";
    let name = safe;
    for (let copy = 2; taken.has(name.toLowerCase()); copy++) name = `${stem} (${copy})${extension}`;
    taken.add(name.toLowerCase());
    return name;
  });
}

/** The ZIP's own name, in plain ASCII: it is the last segment of a signed URL and a file on a phone. */
export function zipFilename(title: string): string {
  const slug = title
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 80)
    .replace(/^-+|-+$/g, "");
  return `${slug || "fotos"}.zip`;
}

/** Writes the ZIP of `photos` to `key`, each original streamed from storage as yazl asks for it. */
async function storeZip(deps: ZipDeps, key: string, photos: PhotoRecord[]): Promise<void> {
  const sizes = await Promise.all(
    photos.map(async (photo) => {
      const stored = await deps.objects.head("originals", photo.originalKey);
      if (!stored) throw new Error(`The original ${photo.originalKey} of photo ${photo.id} is missing`);
      return stored.size;
    }),
  );
  const zip = new yazl.ZipFile();
  // yazl's output is a PassThrough; its declared type is the older NodeJS.ReadableStream.
  const output = zip.outputStream as Readable;
  // Any failure (a storage read, a size that does not match) ends the upload with that error.
  const fail = (error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error)));
  zip.on("error", fail);
  const names = zipEntryNames(photos.map((photo) => photo.originalFilename));
  photos.forEach((photo, index) => {
    zip.addReadStreamLazy(
      names[index] ?? `foto-${index + 1}.jpg`,
      { size: sizes[index] ?? 0, compress: false, mtime: new Date(photo.uploadedAt) },
      (ready) => {
        deps.objects.getStream("originals", photo.originalKey).then((stream) => {
          stream.once("error", fail);
          ready(null, stream);
        }, fail);
      },
    );
  });
  // @types/yazl declares the callback without its argument, the size yazl computes from the entries.
  const size = await new Promise<unknown>((resolve) => zip.end(undefined, (...args: unknown[]) => resolve(args[0])));
  if (typeof size !== "number" || size < 0) throw new Error("yazl could not tell the ZIP's size in advance");
  await deps.objects.put("originals", key, output, "application/zip", size);
}

/**
 * One ZIP of a grant's originals, counted the way single downloads are:
 * 1. the photos that still have a download left go in; each is counted once, by the same
 *    conditional ADD as a single download (so parallel requests never pass the cap, and a photo
 *    whose last download was taken meanwhile stays out);
 * 2. the ZIP is written to storage under a random folder;
 * 3. if that fails, the downloads are given back and the buyer is asked to try again (503).
 * Null when no photo has a download left.
 */
export async function zipOfOriginals(
  deps: ZipDeps,
  grant: ZipGrant,
  photos: PhotoRecord[],
): Promise<DownloadZip | null> {
  const counts = await deps.downloadCounts.counts(
    grant.partition,
    photos.map((photo) => photo.id),
  );
  const open = photos.filter((photo) => (counts.get(photo.id) ?? 0) < grant.maxDownloads);
  const counted = await Promise.all(
    open.map(async (photo) =>
      (await deps.downloadCounts.consume(grant.partition, photo.id, grant.maxDownloads)) === null ? null : photo,
    ),
  );
  const included = counted.filter((photo): photo is PhotoRecord => photo !== null);
  if (included.length === 0) return null;

  const filename = zipFilename(grant.title);
  const day = deps.clock.now().toISOString().slice(0, 10);
  const key = downloadZipKey(day, randomBytes(16).toString("base64url"), filename);
  try {
    await storeZip(deps, key, included);
  } catch (error) {
    deps.logger.error("download ZIP not built; its downloads are given back", { key, error });
    await Promise.all(included.map((photo) => deps.downloadCounts.release(grant.partition, photo.id)));
    throw unavailable(salesMessages.zipFailed);
  }
  return {
    url: await deps.urls.signedGetUrl("originals", key, downloadZipTtlSeconds),
    filename,
    photoCount: included.length,
  };
}

/**
 * What the originals bucket's lifecycle rule does on AWS, for the local runtime, and the
 * dashboard's 'Limpiar archivos temporales' anywhere: deletes the download ZIPs of the days before
 * the one `keptMs` ago (the runtime keeps a day: each lives one to two days; the dashboard keeps
 * only what a link may still fetch). Returns how many went, and their bytes.
 */
export async function sweepDownloadZips(
  deps: Pick<Deps, "objects" | "clock">,
  keptMs = 86_400_000,
): Promise<{ cleanedFiles: number; cleanedBytes: number }> {
  const keepFrom = new Date(deps.clock.now().getTime() - keptMs).toISOString().slice(0, 10);
  const oldDays = new Map<string, number>();
  let cursor: string | undefined;
  do {
    const page = await deps.objects.list("originals", downloadZipPrefix, cursor);
    for (const { key, size } of page.objects) {
      const [day] = key.slice(downloadZipPrefix.length).split("/");
      if (day && day < keepFrom) oldDays.set(day, (oldDays.get(day) ?? 0) + size);
    }
    cursor = page.cursor;
  } while (cursor);
  let cleanedFiles = 0;
  let cleanedBytes = 0;
  for (const [day, bytes] of oldDays) {
    cleanedFiles += await deps.objects.deletePrefix("originals", `${downloadZipPrefix}${day}/`);
    cleanedBytes += bytes;
  }
  return { cleanedFiles, cleanedBytes };
}
