/**
 * Ingestion benchmark: pushes race photos through the embedded runtime (`npm start`'s process,
 * with its real stand-ins and local recognition) the way the upload screen does, and measures
 * how fast they become searchable.
 *
 *   npm run bench:ingest -- [--photos 200] [--rate 60] [--single 5] [--zip-mb 2048] [--data DIR]
 *
 * 1. capacity: N unique 12 MP photos uploaded at once (presigned PUTs, 5 at a time like the
 *    desktop uploader) → photos per minute from the first upload to the last searchable photo;
 * 2. latency: the same photos into another event at a steady `--rate` photos per minute → p50/p95
 *    seconds from the start of each upload until the photo is processed and found by its bib;
 *    a burst measures queueing, not latency, so the two are separate phases;
 * 3. one photo of 24 MP at a time on the idle runtime, `--single` times → median and worst seconds
 *    from the start of its upload until it is processed (polled every 50 ms);
 * 4. ZIP: one archive of about `--zip-mb` MB of unique 12 MP photos, uploaded straight to storage
 *    and unpacked by the runtime (0 skips it) → batch time and the process's memory meanwhile.
 * Peak RSS is the runtime process's high-water mark (VmHWM), worker threads included.
 * The photos are made at run time from the evaluation sets under ../shared/data (never copied
 * into the project) and kept in a temporary directory that is removed at the end.
 * The last line is one JSON object.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import type { EventProcessingDto } from "@dorsal/shared";
import sharp from "sharp";
import { ZipFile } from "yazl";
import { adminToken, apiClient } from "../support/api";
import { startDorsal } from "../support/server";
import { measureCpuLimit } from "./cpu-limit";
import { cpuSecondsOf, memoryOf } from "./proc";

const root = path.resolve(import.meta.dirname, "../..");
const { values } = parseArgs({
  options: {
    photos: { type: "string", default: "200" },
    rate: { type: "string", default: "60" },
    single: { type: "string", default: "5" },
    "zip-mb": { type: "string", default: "2048" },
    data: { type: "string", default: path.resolve(root, "../shared/data") },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log("npm run bench:ingest -- [--photos 200] [--rate 60] [--single 5] [--zip-mb 2048] [--data DIR]");
  process.exit(0);
}
const photoCount = Number(values.photos);
const ratePerMinute = Number(values.rate);
const singleCount = Number(values.single);
const zipBytes = Number(values["zip-mb"]) * 1024 * 1024;
const uploadConcurrency = 5;
const width = 4000;
const height = 3000;

interface Timing {
  photoId: string;
  startedAt: number;
  searchableAt?: number;
}

async function sourcePhotos(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  const photos = entries.filter((entry) => /\.jpe?g$/i.test(entry)).map((entry) => path.join(dir, entry));
  if (photos.length === 0) throw new Error(`no JPEG photos under ${dir}`);
  return photos.sort();
}

/**
 * Sensor-like grain: the evaluation photos are small, and upscaled they would compress to a third of
 * what a 12 MP phone photo weighs; grain brings the files (and the bytes to move) to a realistic size.
 */
const grain = (() => {
  const pixels = Buffer.alloc(width * height * 3);
  let state = 7;
  for (let i = 0; i < pixels.length; i += 1) {
    state = (state * 1103515245 + 12345) >>> 0;
    pixels[i] = 112 + (state >>> 27);
  }
  return pixels;
})();

/**
 * A 12 MP race photo made from a real one, with a few unique pixels so no two hash alike; `scale`
 * 1.414 makes it 24 MP (the grain is stretched with it).
 */
async function makePhoto(source: string, seed: number, quality: number, scale = 1): Promise<Buffer> {
  const noise = Buffer.alloc(24 * 24 * 3);
  // 32-bit products (Math.imul): in doubles they lose their low bits, and two seeds made the same
  // noise, so two photos of one source hashed alike and the second was a duplicate.
  let state = (Math.imul(seed, 2654435761) + 1) >>> 0;
  for (let i = 0; i < noise.length; i += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    noise[i] = state >>> 24;
  }
  const photo = await sharp(source)
    .rotate()
    .resize(width, height, { fit: "cover" })
    .composite([
      { input: grain, raw: { width, height, channels: 3 }, blend: "soft-light" },
      { input: noise, raw: { width: 24, height: 24, channels: 3 }, left: 0, top: 0 },
    ])
    .jpeg({ quality })
    .toBuffer();
  if (scale === 1) return photo;
  return sharp(photo)
    .resize(Math.round(width * scale), Math.round(height * scale))
    .jpeg({ quality })
    .toBuffer();
}

async function mapLimit<T, R>(items: T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index] as T, index);
      }
    }),
  );
  return results;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0);
const round = (value: number, digits = 1) => Number(value.toFixed(digits));

const work = await mkdtemp(path.join(tmpdir(), "dorsal-bench-ingest-"));
const dorsal = await startDorsal({ env: { LOG_LEVEL: "warn" } });
try {
  const api = apiClient(dorsal.url, await adminToken(dorsal));
  const sources = await sourcePhotos(values.data);

  console.log(`making ${photoCount} photos of ${width}×${height} from ${sources.length} sources…`);
  const files = await mapLimit(
    Array.from({ length: photoCount }, (_, i) => i),
    2,
    async (i) => {
      const file = path.join(work, `foto-${String(i).padStart(4, "0")}.jpg`);
      await writeFile(file, await makePhoto(sources[i % sources.length] as string, i, 90));
      return file;
    },
  );
  const averageMb =
    (await Promise.all(files.map((file) => stat(file)))).reduce((sum, s) => sum + s.size, 0) / files.length / 1e6;
  console.log(`photos ready, ${averageMb.toFixed(1)} MB on average`);

  // 0. The CPU limit: the same photos through the pipeline's own steps, nothing in between.
  const cpuLimit = await measureCpuLimit(files);
  console.log(
    `CPU limit: ${cpuLimit.photosPerMinute} photos/min (${cpuLimit.lanes} lanes, ${cpuLimit.cpuSecondsPerPhoto} CPU s/photo; per photo: decode ${cpuLimit.stages.decode} s, variants ${cpuLimit.stages.variants} s, text ${cpuLimit.stages.text} s, faces ${cpuLimit.stages.faces} s, prepare+record ${cpuLimit.stages.prepareAndRecord} s)`,
  );

  const createEvent = async (name: string) => {
    const created = await api.post<{ id: number }>("/api/events", {
      name,
      date: new Date().toISOString().slice(0, 10),
      location: "Bench",
    });
    if (created.status !== 201 && created.status !== 200) throw new Error(`event: ${created.status}`);
    return created.body.id;
  };

  const uploadOne = async (eventId: number, file: string): Promise<Timing> => {
    const startedAt = Date.now();
    const size = (await stat(file)).size;
    const presigned = await api.post<{ uploads: { photoId: string; url: string; headers: Record<string, string> }[] }>(
      "/api/photos/presign",
      { eventId, files: [{ filename: path.basename(file), contentType: "image/jpeg", size }] },
    );
    const upload = presigned.body.uploads?.[0];
    if (presigned.status !== 200 || !upload) throw new Error(`presign: ${presigned.status}`);
    const put = await fetch(upload.url, { method: "PUT", headers: upload.headers, body: await readFile(file) });
    if (!put.ok) throw new Error(`PUT: ${put.status}`);
    return { photoId: upload.photoId, startedAt };
  };

  /**
   * Polls the event's counters every 0.5 s and, whenever more photos have settled, its photo list
   * (as the review screen shows it), stamping each photo the first time it is seen processed. Listing
   * on every poll would spend the runtime's CPU on the benchmark rather than on the photos.
   */
  const watch = async (eventId: number, timings: Map<string, Timing>, expected: () => number) => {
    let settledBefore = -1;
    let listedSettled = 0;
    for (;;) {
      const counters = await api.get<EventProcessingDto>(`/api/events/${eventId}/processing`);
      if (counters.status !== 200) throw new Error(`processing: ${counters.status}`);
      const { processedPhotos, failedPhotos, duplicatePhotos } = counters.body;
      const settledNow = processedPhotos + failedPhotos + duplicatePhotos;
      if (settledNow === settledBefore) {
        if (expected() > 0 && listedSettled >= expected()) return;
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      }
      settledBefore = settledNow;
      let cursor: string | null = null;
      let settled = 0;
      do {
        const query: string = `/api/events/${eventId}/photos?filter=todas&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
        const page = await api.get<{ photos: { id: string; processingStatus: string }[]; cursor: string | null }>(
          query,
        );
        if (page.status !== 200) throw new Error(`photos: ${page.status}`);
        for (const photo of page.body.photos) {
          const timing = timings.get(photo.id);
          if (photo.processingStatus === "pending" || photo.processingStatus === "processing") continue;
          settled += 1;
          if (timing && timing.searchableAt === undefined) timing.searchableAt = Date.now();
          if (photo.processingStatus !== "successful") throw new Error(`photo ${photo.id}: ${photo.processingStatus}`);
        }
        cursor = page.body.cursor;
      } while (cursor);
      listedSettled = settled;
      if (settled >= expected() && expected() > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };

  // 1. Capacity: everything at once.
  const burstEvent = await createEvent("Bench capacidad");
  const burst = new Map<string, Timing>();
  const burstStart = Date.now();
  const burstCpuBefore = await cpuSecondsOf(dorsal.pid);
  const burstWatch = watch(burstEvent, burst, () => (burst.size === photoCount ? photoCount : 0));
  await mapLimit(files, uploadConcurrency, async (file) => {
    const timing = await uploadOne(burstEvent, file);
    burst.set(timing.photoId, timing);
  });
  const uploadedAfterS = (Date.now() - burstStart) / 1000;
  await burstWatch;
  const burstEnd = Math.max(...[...burst.values()].map((t) => t.searchableAt ?? 0));
  const photosPerMinute = photoCount / ((burstEnd - burstStart) / 60_000);
  const runtimeCpuPerPhoto = ((await cpuSecondsOf(dorsal.pid)) - burstCpuBefore) / photoCount;
  const efficiency = photosPerMinute / cpuLimit.photosPerMinute;
  console.log(
    `capacity: ${photoCount} photos uploaded in ${uploadedAfterS.toFixed(1)} s, all searchable after ${((burstEnd - burstStart) / 1000).toFixed(1)} s → ${photosPerMinute.toFixed(1)} photos/min`,
  );

  console.log(
    `efficiency: ${efficiency.toFixed(2)} of the CPU limit; the runtime used ${runtimeCpuPerPhoto.toFixed(2)} CPU s/photo, ${(runtimeCpuPerPhoto - cpuLimit.cpuSecondsPerPhoto).toFixed(2)} more than the steps alone (storage, table, orchestration, HTTP)`,
  );

  // 2. Latency at a steady rate.
  const pacedEvent = await createEvent("Bench latencia");
  const paced = new Map<string, Timing>();
  const pacedWatch = watch(pacedEvent, paced, () => (paced.size === photoCount ? photoCount : 0));
  const intervalMs = 60_000 / ratePerMinute;
  const pacedStart = Date.now();
  await Promise.all(
    files.map(async (file, i) => {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, pacedStart + i * intervalMs - Date.now())));
      const timing = await uploadOne(pacedEvent, file);
      paced.set(timing.photoId, timing);
    }),
  );
  await pacedWatch;
  const latencies = [...paced.values()]
    .map((t) => ((t.searchableAt ?? Number.NaN) - t.startedAt) / 1000)
    .sort((a, b) => a - b);
  const p50 = percentile(latencies, 50);
  const p95 = percentile(latencies, 95);
  console.log(
    `latency at ${ratePerMinute} photos/min: p50 ${p50.toFixed(1)} s, p95 ${p95.toFixed(1)} s, max ${(latencies.at(-1) ?? 0).toFixed(1)} s`,
  );

  // Bib search is what "searchable" promises: a photo with a readable bib must be found by it.
  const searchable = await api.get<{ totalFound: number }>(
    `/api/photos/search?eventId=${burstEvent}&dorsalNumber=3638`,
  );
  console.log(`search for bib 3638 in the capacity event: ${searchable.body.totalFound} photo(s)`);

  // 3. One 24 MP photo at a time, alone: how long one photo takes end to end, no queue in front of it.
  let single: { megapixels: number; medianS: number; maxS: number } | null = null;
  if (singleCount > 0) {
    const singleEvent = await createEvent("Bench 24 MP");
    const seconds: number[] = [];
    let megapixels = 0;
    for (let i = 0; i < singleCount; i++) {
      const file = path.join(work, `grande-${i}.jpg`);
      const photo = await makePhoto(sources[(i * 7) % sources.length] as string, 2_000_000 + i, 90, Math.SQRT2);
      const { width: w = 0, height: h = 0 } = await sharp(photo).metadata();
      megapixels = round((w * h) / 1e6);
      await writeFile(file, photo);
      const timing = await uploadOne(singleEvent, file);
      for (;;) {
        const polled = await api.get<{ processingStatus: string }>(`/api/photos/${timing.photoId}`);
        if (polled.status !== 200) throw new Error(`photo: ${polled.status}`);
        if (polled.body.processingStatus === "successful") break;
        // A duplicate is never processed: waiting for it would never end.
        if (polled.body.processingStatus === "failed" || polled.body.processingStatus === "duplicate") {
          throw new Error(`24 MP photo ${timing.photoId}: ${polled.body.processingStatus}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      seconds.push((Date.now() - timing.startedAt) / 1000);
    }
    seconds.sort((a, b) => a - b);
    single = { megapixels, medianS: round(percentile(seconds, 50), 2), maxS: round(seconds.at(-1) ?? 0, 2) };
    console.log(
      `one ${megapixels} MP photo at a time: upload start → processed, median ${single.medianS} s, worst ${single.maxS} s (${singleCount} photos)`,
    );
  }

  // 4. One big ZIP.
  let zipSummary: Record<string, number> | null = null;
  let zipPeakRssMb = 0;
  if (zipBytes > 0) {
    const zipPath = path.join(work, "carrera.zip");
    const zip = new ZipFile();
    const written = pipeline(zip.outputStream, createWriteStream(zipPath));
    let total = 0;
    let entries = 0;
    console.log(`making a ZIP of ~${values["zip-mb"]} MB of unique 12 MP photos…`);
    // Entry headers and the central directory take well under 256 bytes per entry: the archive
    // stays within --zip-mb, which by default is exactly the server's limit.
    const overheadBytes = (count: number) => count * 256 + 64 * 1024;
    for (;;) {
      const photo = await makePhoto(sources[entries % sources.length] as string, 1_000_000 + entries, 97);
      if (total + photo.length + overheadBytes(entries + 1) > zipBytes) break;
      // Photos are compressed already: stored entries keep the archive's size honest and unpacking fast.
      zip.addBuffer(photo, `carrera/foto-${String(entries).padStart(5, "0")}.jpg`, { compress: false });
      total += photo.length;
      entries += 1;
    }
    zip.end();
    await written;
    const zipSize = (await stat(zipPath)).size;
    const zipEvent = await createEvent("Bench ZIP");
    const batch = await api.post<{ batchId: string; url: string; headers?: Record<string, string> }>(
      "/api/photos/zip-batches",
      {
        eventId: zipEvent,
        filename: "carrera.zip",
        size: zipSize,
      },
    );
    if (batch.status !== 200 && batch.status !== 201)
      throw new Error(`zip batch: ${batch.status} ${JSON.stringify(batch.body)}`);
    const zipStart = Date.now();
    const put = await fetch(batch.body.url, {
      method: "PUT",
      headers: { ...batch.body.headers, "content-length": String(zipSize) },
      body: Readable.toWeb(createReadStream(zipPath)) as ReadableStream,
      duplex: "half",
    } as RequestInit);
    if (!put.ok) throw new Error(`ZIP PUT: ${put.status}`);
    const uploadedS = (Date.now() - zipStart) / 1000;
    let status: {
      status: string;
      totalFiles: number;
      extractedFiles: number;
      processedFiles: number;
      error?: string | null;
    };
    for (;;) {
      const memory = await memoryOf(dorsal.pid);
      zipPeakRssMb = Math.max(zipPeakRssMb, memory.rssMb);
      const polled = await api.get<typeof status>(`/api/photos/batch-status/${batch.body.batchId}`);
      status = polled.body;
      if (status.status === "completed" || status.status === "error") break;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    const zipS = (Date.now() - zipStart) / 1000;
    if (status.status !== "completed") throw new Error(`ZIP batch ended in ${status.status}: ${status.error}`);
    zipSummary = {
      zipMb: Math.round(zipSize / 1024 / 1024),
      photos: status.totalFiles,
      uploadS: round(uploadedS),
      searchableS: round(zipS),
      photosPerMinute: round(status.processedFiles / (zipS / 60)),
      peakRssMb: Math.round(zipPeakRssMb),
    };
    console.log(
      `ZIP: ${zipSummary.zipMb} MB, ${entries} photos, uploaded in ${uploadedS.toFixed(1)} s, all searchable after ${zipS.toFixed(1)} s, RSS peak while unpacking ${Math.round(zipPeakRssMb)} MB`,
    );
  }

  const memory = await memoryOf(dorsal.pid);
  console.log(`runtime memory: now ${Math.round(memory.rssMb)} MB, peak ${Math.round(memory.peakMb)} MB`);
  console.log(
    JSON.stringify({
      photos: photoCount,
      photosPerMinute: round(photosPerMinute),
      p95UploadToSearchableS: round(p95),
      peakRssMb: Math.round(memory.peakMb),
      p50UploadToSearchableS: round(p50),
      rate: ratePerMinute,
      cpuLimitPhotosPerMinute: cpuLimit.photosPerMinute,
      efficiency: round(efficiency, 2),
      cpuSecondsPerPhoto: {
        ...cpuLimit.stages,
        stepsTotal: cpuLimit.cpuSecondsPerPhoto,
        runtimeTotal: round(runtimeCpuPerPhoto, 3),
        storageTableOrchestration: round(runtimeCpuPerPhoto - cpuLimit.cpuSecondsPerPhoto, 3),
      },
      ...(single ? { single } : {}),
      ...(zipSummary ? { zip: zipSummary } : {}),
    }),
  );
} finally {
  await dorsal.stop();
  await rm(work, { recursive: true, force: true });
}
