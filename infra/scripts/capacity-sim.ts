/**
 * `npm run capacity:sim`: the race-day queue model of docs/capacity.md (capacity-model.ts) for N
 * photos, once per Rekognition latency of the range, as a table; the last line is one JSON object.
 *
 *   npm run capacity:sim -- [--photos 5000] [--minutes 10] [--burst] [--rekognition-ms 300..1000]
 *     [--variants-s X] [--measure] [--tps 50] [--detect-concurrency 25] [--variants-concurrency 60]
 *     [--max-attempts 30] [--calls parallel|sequential] [--detect-memory 1024] [--seed 1]
 *
 * --rekognition-ms: one value, a list (300,500,1000) or a range (300..1000, every 100 ms).
 * --measure: first time the variants step here (prepare and variants of the in-memory container,
 *   Rekognition's settings, on hvv's 22.6 MP photo: as stored, and as a camera writes it) and
 *   simulate with that measurement converted to Lambda instead of the recorded one.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  assumed,
  defaultParams,
  lambdaMbPerVcpu,
  lambdaSeconds,
  type ModelParams,
  measured,
  type SimResult,
  simulate,
} from "./capacity-model";

const root = path.resolve(import.meta.dirname, "../..");
const { values } = parseArgs({
  options: {
    photos: { type: "string", default: "5000" },
    minutes: { type: "string", default: "10" },
    burst: { type: "boolean", default: false },
    "rekognition-ms": { type: "string", default: "300..1000" },
    "variants-s": { type: "string" },
    measure: { type: "boolean", default: false },
    "measure-photos": { type: "string", default: "6" },
    data: { type: "string", default: path.join(root, "../shared/data/hvv") },
    tps: { type: "string" },
    "detect-concurrency": { type: "string" },
    "variants-concurrency": { type: "string" },
    "max-attempts": { type: "string" },
    calls: { type: "string", default: "parallel" },
    "detect-memory": { type: "string" },
    seed: { type: "string", default: "1" },
  },
});

function number(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name}: not a number: ${text}`);
  return value;
}

function latenciesMs(text: string): number[] {
  const range = /^(\d+)\.\.(\d+)$/.exec(text);
  if (range) {
    const [from, to] = [Number(range[1]), Number(range[2])];
    const points: number[] = [];
    for (let ms = from; ms <= to; ms += 100) points.push(ms);
    if (points.at(-1) !== to) points.push(to);
    return points;
  }
  return text.split(",").map((part) => number("rekognition-ms", part) as number);
}

interface StepFigures {
  photos: number;
  bytesMean: number;
  cpuSPerPhoto: number;
  wallSMedian: number;
}

/**
 * CPU-seconds (process.cpuUsage: every thread, libvips' included) and wall time of prepare and
 * variants per photo, as pipeline.test.ts's last describe runs them: the in-memory container with
 * Rekognition's settings (so variants makes the ≤ 3000 px working copy) and a scripted vision; the
 * camera-like photos again with the local engine's settings (no working copy), for comparison.
 * Each photo in an event of its own (the same bytes twice would be a duplicate). The first photo
 * warms the process up (sharp loaded, the watermarks rendered): it is reported apart, as a cold
 * instance's first photo.
 */
async function measureVariants(count: number, dataDir: string) {
  const { default: sharp } = await import("sharp");
  const { createEventRequest } = await import("@dorsal/shared/staff-requests");
  const { createScriptedVision } = await import("../../functions/src/adapters/memory/vision");
  const { memoryContainer } = await import("../../functions/src/testing/memory-container");
  const { createEvent } = await import("../../functions/src/app/events");
  const { storagePaths } = await import("../../functions/src/app/storage-paths");

  const candidates: { file: string; pixels: number; width: number; height: number }[] = [];
  for (const name of (await readdir(dataDir)).filter((entry) => /\.jpe?g$/i.test(entry)).sort()) {
    const file = path.join(dataDir, name);
    const { width = 0, height = 0 } = await sharp(file).metadata();
    candidates.push({ file, pixels: width * height, width, height });
  }
  // The race photos of a modern camera: 20 MP and over (hvv's 5822 × 3881, 22.6 MP).
  const large = candidates.filter((candidate) => candidate.pixels >= 20e6);
  if (large.length === 0) throw new Error(`no photo of 20 MP or more in ${dataDir}`);

  // Rekognition's settings: variants makes the working copy. The local engine's: it does not (the
  // path every photo took before the working copy), for comparison.
  const containers = {
    working: await memoryContainer({ vision: createScriptedVision(() => ({})) }, { VISION_ENGINE: "rekognition" }),
    noWorking: await memoryContainer({ vision: createScriptedVision(() => ({})) }, { VISION_ENGINE: "local" }),
  };
  let serial = 0;
  const run = async (bytes: Buffer, copy: keyof typeof containers = "working") => {
    const { deps, pipelineTasks: tasks } = containers[copy];
    serial++;
    const event = await createEvent(deps, createEventRequest.parse({ name: `Medición ${serial}`, date: "2026-11-27" }));
    const key = storagePaths.original(event.id, `medida${String(serial).padStart(4, "0")}`, "jpg");
    await deps.objects.put("originals", key, bytes, "image/jpeg", bytes.length);
    const timed = async <T>(work: () => Promise<T>) => {
      const cpu = process.cpuUsage();
      const started = performance.now();
      const value = await work();
      const used = process.cpuUsage(cpu);
      return { value, cpuS: (used.user + used.system) / 1e6, wallS: (performance.now() - started) / 1000 };
    };
    const prepare = await timed(() =>
      tasks.prepare({ bucket: deps.objects.bucketName("originals"), key, size: bytes.length, version: "1" }),
    );
    const working = copy === "working";
    if (prepare.value.detectFromWorkingCopy !== working) throw new Error("prepare routed the photo otherwise");
    const variants = await timed(() => tasks.variants({ photo: prepare.value }));
    if (Boolean(variants.value.workingKey) !== working) throw new Error("variants' working copy is not as expected");
    return { prepare, variants };
  };
  /**
   * A camera's JPEG of the same pixels: grain back (±6 levels) at quality 95, as bench:detect makes
   * it (hvv's photos are smoothed and compressed hard, ~1.5 MB for 22.6 MP; a camera writes 7–15 MB),
   * with the original's ICC profile embedded or not: sharp converts a photo that carries one to
   * sRGB, which costs as much as the decode itself.
   */
  const cameraLike = async (file: string, iccFile: string | undefined) => {
    const { data, info } = await sharp(file).rotate().raw().toBuffer({ resolveWithObject: true });
    const grain = randomBytes(data.length);
    for (let i = 0; i < data.length; i++) {
      data[i] = Math.max(0, Math.min(255, (data[i] ?? 0) + ((grain[i] ?? 0) % 13) - 6));
    }
    const pixels = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
    return (iccFile ? pixels.withIccProfile(iccFile) : pixels).jpeg({ quality: 95 }).toBuffer();
  };

  const loadBefore = loadavg()[0] ?? 0;
  const source = large[0] as (typeof large)[number];
  const stored = await readFile(source.file);
  const { icc } = await sharp(stored).metadata();
  const scratch = await mkdtemp(path.join(tmpdir(), "dorsal-capacity-"));
  const iccFile = icc ? path.join(scratch, "profile.icc") : undefined;
  if (iccFile && icc) await writeFile(iccFile, icc);
  const first = await run(stored);
  const storedRuns: Awaited<ReturnType<typeof run>>[] = [];
  for (let i = 0; i < count; i++) storedRuns.push(await run(stored));
  const cameraSet = async (profile: string | undefined) => {
    const photos: Buffer[] = [];
    const runs: Awaited<ReturnType<typeof run>>[] = [];
    for (let i = 0; i < count; i++) {
      const photo = await cameraLike(source.file, profile);
      photos.push(photo);
      runs.push(await run(photo));
    }
    return { photos, bytes: photos.map((photo) => photo.length), runs };
  };
  const camera = await cameraSet(iccFile);
  // The same photos again, without the working copy.
  const cameraNoWorking: Awaited<ReturnType<typeof run>>[] = [];
  for (const photo of camera.photos) cameraNoWorking.push(await run(photo, "noWorking"));
  const cameraNoProfile = await cameraSet(undefined);
  await Promise.all([containers.working.close(), containers.noWorking.close()]);
  await rm(scratch, { recursive: true, force: true });
  const figures = (runs: typeof storedRuns, step: "prepare" | "variants", bytes: number[]): StepFigures => {
    const walls = runs.map((one) => one[step].wallS).sort((a, b) => a - b);
    return {
      photos: runs.length,
      bytesMean: Math.round(bytes.reduce((sum, value) => sum + value, 0) / bytes.length),
      cpuSPerPhoto: round(runs.reduce((sum, one) => sum + one[step].cpuS, 0) / runs.length, 3),
      wallSMedian: round(walls[Math.floor(walls.length / 2)] ?? 0, 3),
    };
  };
  return {
    photo: `${path.basename(source.file)} ${source.width}×${source.height}`,
    firstPhoto: { prepareCpuS: round(first.prepare.cpuS, 3), variantsCpuS: round(first.variants.cpuS, 3) },
    stored: {
      prepare: figures(storedRuns, "prepare", [stored.length]),
      variants: figures(storedRuns, "variants", [stored.length]),
    },
    camera: {
      hasProfile: Boolean(iccFile),
      prepare: figures(camera.runs, "prepare", camera.bytes),
      variants: figures(camera.runs, "variants", camera.bytes),
    },
    cameraNoWorkingCopy: { variants: figures(cameraNoWorking, "variants", camera.bytes) },
    cameraNoProfile: { variants: figures(cameraNoProfile.runs, "variants", cameraNoProfile.bytes) },
    /** The process's, the in-memory store holding every photo and copy: not a Lambda's. */
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    /** The machine's 1-minute load average before and after: other work inflates the CPU figures. */
    load: [round(loadBefore), round(loadavg()[0] ?? 0)],
  };
}

function round(value: number, digits = 2) {
  return Math.round(value * 10 ** digits) / 10 ** digits;
}

const photos = number("photos", values.photos) as number;
const windowS = values.burst ? 0 : (number("minutes", values.minutes) as number) * 60;
const calls = values.calls;
if (calls !== "parallel" && calls !== "sequential") throw new Error("--calls: parallel or sequential");
const detectMemory = number("detect-memory", values["detect-memory"]);
const maxAttempts = number("max-attempts", values["max-attempts"]);

let measuredNow: Awaited<ReturnType<typeof measureVariants>> | undefined;
if (values.measure) {
  measuredNow = await measureVariants(number("measure-photos", values["measure-photos"]) as number, values.data);
  const line = (label: string, step: StepFigures) =>
    `  ${label.padEnd(20)} ${step.photos} photos, ${(step.bytesMean / 1e6).toFixed(2)} MB, ` +
    `${step.cpuSPerPhoto.toFixed(3)} CPU-s/photo, median wall ${step.wallSMedian.toFixed(3)} s`;
  console.log(
    `measured here (${measuredNow.photo}${measuredNow.camera.hasProfile ? ", ICC profile embedded" : ""}; ` +
      `2 cores; CPU of every thread):`,
  );
  console.log(line("prepare, as stored", measuredNow.stored.prepare));
  console.log(line("variants, as stored", measuredNow.stored.variants));
  console.log(line("prepare, camera-like", measuredNow.camera.prepare));
  console.log(line("variants, camera-like", measuredNow.camera.variants));
  console.log(line("  no working copy", measuredNow.cameraNoWorkingCopy.variants));
  console.log(line("  no ICC profile", measuredNow.cameraNoProfile.variants));
  console.log(
    `  first photo of the process (sharp loaded, marks rendered): variants ${measuredNow.firstPhoto.variantsCpuS} CPU-s; ` +
      `process peak RSS ${measuredNow.peakRssMb} MB; load average ${measuredNow.load.join(" → ")}`,
  );
}

const base = defaultParams({
  photos,
  windowS,
  seed: number("seed", values.seed) as number,
  rekognitionCalls: calls,
  ...(detectMemory !== undefined ? { memoryMb: { detect: detectMemory } } : {}),
});
const variantsCpuS = measuredNow ? measuredNow.camera.variants.cpuSPerPhoto : measured.variantsCpuS;
const variantsS =
  number("variants-s", values["variants-s"]) ??
  lambdaSeconds(variantsCpuS, base.memoryMb.variants) + assumed.variantsIoS;
const tps = number("tps", values.tps);
const settings: ModelParams = {
  ...base,
  variantsS,
  ...(tps !== undefined ? { rekognitionTps: tps, rekognitionBurst: tps } : {}),
  detectConcurrency: number("detect-concurrency", values["detect-concurrency"]) ?? base.detectConcurrency,
  variantsConcurrency: number("variants-concurrency", values["variants-concurrency"]) ?? base.variantsConcurrency,
  throttleRetry: { ...base.throttleRetry, MaxAttempts: maxAttempts ?? base.throttleRetry.MaxAttempts },
};

const vcpu = (mb: number) => (mb / lambdaMbPerVcpu).toFixed(2);
console.log(
  `${photos} photos ${windowS > 0 ? `landing over ${windowS / 60} min` : "landing at once"}; ` +
    `variants ${settings.variantsS.toFixed(2)} s (${variantsCpuS} CPU-s at ${settings.memoryMb.variants} MB = ` +
    `${vcpu(settings.memoryMb.variants)} vCPU, + ${assumed.variantsIoS} s S3)${values["variants-s"] ? " [given]" : ""}; ` +
    `detect ${settings.detectOwnS.toFixed(3)} s + Rekognition (${measured.detectCpuS} CPU-s at ${settings.memoryMb.detect} MB = ` +
    `${vcpu(settings.memoryMb.detect)} vCPU, + ${assumed.detectIoS} s S3), calls ${settings.rekognitionCalls}; ` +
    `C_v ${settings.variantsConcurrency}, C_d ${settings.detectConcurrency}, ${settings.rekognitionTps} TPS per operation, ` +
    `MaxAttempts ${settings.throttleRetry.MaxAttempts}; seed ${settings.seed}`,
);

const columns = [
  ["Rek. ms", 7],
  ["last done s", 11],
  ["after last upload s", 19],
  ["p50/p95/max s", 17],
  ["failed", 6],
  ["peak waiting st/var/det", 23],
  ["Rek. throttled", 14],
  ["refused var/det", 15],
  ["detect/s peak/mean", 18],
  ["GB-s/photo", 10],
  ["10-min target", 13],
] as const;
const cell = (text: string | number, width: number) => String(text).padStart(width);
console.log(columns.map(([name, width]) => cell(name, width)).join("  "));

const targetS = 600;
const rows: (SimResult & { rekognitionMs: number; meetsTarget: boolean })[] = [];
for (const ms of latenciesMs(values["rekognition-ms"])) {
  const result = simulate({ ...settings, rekognitionLatencyS: ms / 1000 });
  const meetsTarget = result.failed === 0 && result.latencyS.max <= targetS;
  rows.push({ rekognitionMs: ms, ...result, meetsTarget });
  const { latencyS: l, peakWaiting: w, lambdaRefusals: r, detectPhotosPerS: d } = result;
  const cells = [
    ms,
    result.lastDoneS,
    result.afterLastUploadS,
    `${l.p50}/${l.p95}/${l.max}`,
    result.failed,
    `${w.starter}/${w.variants}/${w.detect}`,
    result.rekognition.throttled,
    `${r.variants}/${r.detect}`,
    `${d.peak10s}/${d.mean}`,
    result.gbSecondsPerPhoto.total,
    meetsTarget ? "met" : "MISSED",
  ];
  console.log(cells.map((value, i) => cell(value, (columns[i] as (typeof columns)[number])[1])).join("  "));
  for (const [reason, count] of Object.entries(result.failures))
    console.log(`${"".padStart(9)}failed: ${count} × ${reason}`);
}
console.log(
  JSON.stringify({
    settings: {
      photos,
      windowS,
      variantsS: round(settings.variantsS, 3),
      detectOwnS: round(settings.detectOwnS, 3),
      memoryMb: settings.memoryMb,
      variantsConcurrency: settings.variantsConcurrency,
      detectConcurrency: settings.detectConcurrency,
      rekognitionTps: settings.rekognitionTps,
      rekognitionCalls: settings.rekognitionCalls,
      maxAttempts: settings.throttleRetry.MaxAttempts,
      seed: settings.seed,
    },
    ...(measuredNow ? { measured: measuredNow } : {}),
    rows,
  }),
);
