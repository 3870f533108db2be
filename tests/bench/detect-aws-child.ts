/** One mode of bench:detect (detect-aws.ts), in a process of its own: reads each file as detect reads its object, then has Rekognition read it. */
import { readFile } from "node:fs/promises";
import { RekognitionClient } from "@aws-sdk/client-rekognition";
import { createRekognitionVision } from "../../functions/src/adapters/aws/rekognition";
import { memoryOf } from "./proc";

const [mode = "", ...files] = process.argv.slice(2);
const client = new RekognitionClient({
  region: "us-east-1",
  credentials: { accessKeyId: "bench", secretAccessKey: "bench" },
});
const vision = createRekognitionVision(client);
let bytesSent = 0;
client.middlewareStack.add(
  (next) => async (args) => {
    const input = args.input as { Image?: { Bytes?: Uint8Array } };
    bytesSent += input.Image?.Bytes?.byteLength ?? 0;
    return next(args);
  },
  { step: "initialize" },
);
const walls: number[] = [];
const cpuBefore = process.cpuUsage();
for (const file of files) {
  const started = performance.now();
  await vision.readPhoto(await readFile(file));
  walls.push(performance.now() - started);
}
const cpu = process.cpuUsage(cpuBefore);
walls.sort((a, b) => a - b);
console.log(
  JSON.stringify({
    mode,
    photos: files.length,
    // Text and faces each send the same bytes.
    meanBytesSent: Math.round(bytesSent / 2 / files.length),
    cpuMsPerPhoto: Math.round((cpu.user + cpu.system) / 1000 / files.length),
    wallMsMedian: Math.round(walls[Math.floor(walls.length / 2)] ?? 0),
    peakRssMb: Math.round((await memoryOf(process.pid)).peakMb),
  }),
);
client.destroy();
