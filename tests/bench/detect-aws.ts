/**
 * What the detect step costs on AWS, where Rekognition reads (issue 21 item 3): the CPU and memory
 * the function spends per photo when it sends Rekognition
 *   - `original`: the photographer's original (hvv's 22.6 MP photos at a camera's JPEG quality,
 *     6–12 MB), which the adapter must re-encode under Rekognition's 5 MB limit — what detect did
 *     before variants made a copy;
 *   - `copy`: the ≤ 3000 px working copy variants now makes, sent as it is.
 * Rekognition itself is a local HTTP stand-in that answers at once (no internet here): what is
 * measured is the function's own work, the part its memory size buys. Each mode runs in its own
 * child process, so its peak RSS (VmHWM) is its own.
 *
 *   npm run bench:detect -- [--photos 6] [--data ../shared/data/hvv]
 *
 * The last line is one JSON object.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";

const root = path.resolve(import.meta.dirname, "../..");
const { values } = parseArgs({
  options: {
    photos: { type: "string", default: "6" },
    data: { type: "string", default: path.join(root, "../shared/data/hvv") },
  },
});

/** Answers DetectText and DetectFaces with nothing found, as Rekognition's JSON protocol does. */
async function startRekognitionStandIn() {
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const operation = String(request.headers["x-amz-target"] ?? "")
        .split(".")
        .pop();
      response.writeHead(200, { "content-type": "application/x-amz-json-1.1" });
      response.end(JSON.stringify(operation === "DetectFaces" ? { FaceDetails: [] } : { TextDetections: [] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

interface ModeFigures {
  mode: string;
  photos: number;
  meanBytesSent: number;
  cpuMsPerPhoto: number;
  wallMsMedian: number;
  peakRssMb: number;
}

function runMode(mode: "original" | "copy", files: string[], endpoint: string): Promise<ModeFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(import.meta.dirname, "detect-aws-child.ts"), mode, ...files],
      {
        cwd: root,
        env: { ...process.env, AWS_ENDPOINT_URL_REKOGNITION: endpoint },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(JSON.parse(output.trim().split("\n").at(-1) ?? "{}"))
        : reject(new Error(`${mode}: exit ${code}`)),
    );
  });
}

const photoCount = Number(values.photos);
const originals = (await readdir(values.data))
  .filter((name) => /\.jpe?g$/i.test(name))
  .sort()
  .slice(0, photoCount)
  .map((name) => path.join(values.data, name));
if (originals.length === 0) throw new Error(`no JPEG photos in ${values.data}`);
const scratch = await mkdtemp(path.join(tmpdir(), "dorsal-bench-detect-"));
const standIn = await startRekognitionStandIn();
try {
  // hvv's photos are 22.6 MP but smoothed and compressed hard (~1 MB). A camera's have sensor grain
  // and high quality, 8–15 MB, over Rekognition's 5 MB: that is what photographers upload, so a
  // little grain (±6 levels) is put back before encoding at a camera's quality.
  const cameraOriginals: string[] = [];
  const copies: string[] = [];
  for (const [index, file] of originals.entries()) {
    const camera = path.join(scratch, `original-${index}.jpg`);
    const { data, info } = await sharp(file).rotate().raw().toBuffer({ resolveWithObject: true });
    const grain = randomBytes(data.length);
    for (let i = 0; i < data.length; i++)
      data[i] = Math.max(0, Math.min(255, (data[i] ?? 0) + ((grain[i] ?? 0) % 13) - 6));
    await writeFile(
      camera,
      await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
        .jpeg({ quality: 95 })
        .toBuffer(),
    );
    cameraOriginals.push(camera);
    // The working copies as variants makes them (functions/src/app/pipeline.ts: 3000 px, quality 90).
    const copy = path.join(scratch, `copia-${index}.jpg`);
    await writeFile(
      copy,
      await sharp(camera)
        .rotate()
        .resize(3000, 3000, { fit: "inside", withoutEnlargement: true })
        .jpeg({ quality: 90 })
        .toBuffer(),
    );
    copies.push(copy);
  }
  const original = await runMode("original", cameraOriginals, standIn.url);
  const copy = await runMode("copy", copies, standIn.url);
  for (const figures of [original, copy]) {
    console.log(
      `${figures.mode.padEnd(9)} ${figures.photos} photos, ${(figures.meanBytesSent / 1e6).toFixed(2)} MB sent each, ` +
        `${figures.cpuMsPerPhoto} CPU-ms/photo, median ${figures.wallMsMedian} ms, peak RSS ${figures.peakRssMb} MB`,
    );
  }
  const cpuRatio = Math.round((original.cpuMsPerPhoto / copy.cpuMsPerPhoto) * 10) / 10;
  console.log(`the copy saves detect ${cpuRatio}× CPU per photo, measured in this run`);
  console.log(JSON.stringify({ original, copy, cpuRatio }));
} finally {
  standIn.close();
  await rm(scratch, { recursive: true, force: true });
}
