/**
 * `npm run preflight -- --url http://localhost:3000`: the preflight against a running Dorsal,
 * signing in with ADMIN_EMAIL and ADMIN_PASSWORD from the environment. One line per check, then
 * the report as one JSON line; exit 1 when a check is RED (2 when it could not start).
 */
import { parseArgs } from "node:util";
import { runPreflight } from "./preflight";
import { makeBibPhoto, zipOf } from "./probe-photo";
import { probePortraitJpeg } from "./probe-portrait";

const { values } = parseArgs({
  options: { url: { type: "string", default: "http://localhost:3000" }, timeout: { type: "string", default: "120" } },
});
const email = process.env.ADMIN_EMAIL;
const password = process.env.ADMIN_PASSWORD;
const timeoutSeconds = Number(values.timeout);
if (!email || !password || !(timeoutSeconds > 0)) {
  console.error(
    "Usage: ADMIN_EMAIL=… ADMIN_PASSWORD=… npm run preflight -- [--url http://localhost:3000] [--timeout 120]\n" +
      "(an admin's credentials: the preflight creates a probe event, uploads a photo and removes them)",
  );
  process.exit(2);
}

// A bib of five digits no race is likely to print, different on every run; the ZIP's photo
// carries the next one, so it is not a copy of the first.
const probeBib = 90_000 + Math.floor(Math.random() * 9_999);
const report = await runPreflight({
  url: values.url,
  email,
  password,
  probeBib: String(probeBib),
  probeImage: await makeBibPhoto(String(probeBib), { portrait: probePortraitJpeg() }),
  probeZip: await zipOf("preflight-zip.jpg", await makeBibPhoto(String(probeBib + 1))),
  pipelineTimeoutMs: timeoutSeconds * 1000,
  onCheck: ({ name, status, ms, detail }) =>
    console.log(`${status.padEnd(6)} ${name.padEnd(10)} ${String(ms).padStart(6)} ms  ${detail}`),
});
console.log(JSON.stringify(report));
process.exitCode = report.status === "RED" ? 1 : 0;
