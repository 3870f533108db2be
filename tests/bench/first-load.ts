/**
 * First-load benchmark: what a visitor's phone downloads, and how long until it shows `/search`,
 * on a cold cache, for this checkout and a baseline commit, in one run.
 *
 *   npm run bench:first-load -- [--baseline main] [--runs 5]
 *
 * The baseline commit is exported to a temporary directory with its dependencies (`./baseline.ts`),
 * built with its own Vite config, and run with its own runtime, both with a fresh DATA_DIR. Each run
 * opens `/search` in a new Chromium context (empty cache), alternating baseline and current, and
 * measures from navigation start to the page's h1: once on the loopback (mostly CPU: parsing and
 * running the JS) and once over an emulated slow phone network (Lighthouse's "Slow 4G": 150 ms
 * RTT, 1.6 Mbps down), where bytes count. It also counts the app's bytes on the wire (compressed,
 * headers included) and decoded, JS apart, and what a reload transfers (the API's answers left
 * out), from Resource Timing. Byte figures are machine-independent; times are medians.
 * The last line is one JSON object.
 */
import { execFileSync } from "node:child_process";
import { rm } from "node:fs/promises";
import { parseArgs } from "node:util";
import { type Browser, chromium } from "playwright-core";
import { type RunningDorsal, startDorsal } from "../support/server";
import { currentCheckout, exportBaseline } from "./baseline";
import { percentile } from "./bibs/score";

const { values } = parseArgs({
  options: {
    baseline: { type: "string", default: "main" },
    runs: { type: "string", default: "5" },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log("npm run bench:first-load -- [--baseline main] [--runs 5]");
  process.exit(0);
}
const runs = Number(values.runs);

/** Lighthouse's mobile throttling ("Slow 4G"), in the units of CDP's Network.emulateNetworkConditions. */
const slow4g = {
  offline: false,
  latency: 150,
  downloadThroughput: (1638.4 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};
const network = { loopback: undefined, slow4g } as const;
type NetworkName = keyof typeof network;

/** The test programs are typed without the DOM library; this is what the page functions read. */
declare const document: { querySelector(selector: string): { textContent: string | null } | null };
interface ResourceEntry {
  entryType: string;
  name: string;
  transferSize: number;
  decodedBodySize: number;
}

interface Load {
  ms: number;
  wireBytes: number;
  decodedBytes: number;
  jsWireBytes: number;
  jsDecodedBytes: number;
  reloadWireBytes: number;
}

async function coldLoad(browser: Browser, url: string, conditions: typeof slow4g | undefined): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "es-CO" });
  try {
    const page = await context.newPage();
    // Only to throttle: DevTools' network events would slow the loopback loads themselves.
    if (conditions) {
      const session = await context.newCDPSession(page);
      await session.send("Network.enable");
      await session.send("Network.emulateNetworkConditions", conditions);
    }
    await page.goto(`${url}/search`, { waitUntil: "commit" });
    const shownAt = await page.waitForFunction(() => {
      const heading = document.querySelector("h1");
      return heading?.textContent ? performance.now() : false;
    });
    const ms = (await shownAt.jsonValue()) as number;
    // Everything the first screen asked for, then counted; again after a reload.
    await page.waitForLoadState("networkidle");
    const first = await page.evaluate(appBytes);
    await page.reload({ waitUntil: "networkidle" });
    const reload = await page.evaluate(appBytes);
    return { ms, ...first, reloadWireBytes: reload.wireBytes };
  } finally {
    await context.close();
  }
}

/**
 * Runs in the page: the bytes of the app's files this document loaded (the API's answers left
 * out, they are the same data either way), from Resource Timing: on the wire (body as sent plus
 * headers; nothing for a file the cache answered) and decoded.
 */
function appBytes() {
  const totals = { wireBytes: 0, decodedBytes: 0, jsWireBytes: 0, jsDecodedBytes: 0 };
  for (const entry of performance.getEntries() as unknown as ResourceEntry[]) {
    if (entry.entryType !== "navigation" && entry.entryType !== "resource") continue;
    if (new URL(entry.name).pathname.startsWith("/api/")) continue;
    totals.wireBytes += entry.transferSize;
    totals.decodedBytes += entry.decodedBodySize;
    if (entry.name.endsWith(".js")) {
      totals.jsWireBytes += entry.transferSize;
      totals.jsDecodedBytes += entry.decodedBodySize;
    }
  }
  return totals;
}

const median = (loads: Load[], key: keyof Load) =>
  Math.round(
    percentile(
      loads.map((load) => load[key]),
      50,
    ),
  );
const kB = (bytes: number) => Number((bytes / 1000).toFixed(1));
const ratio = (after: number, before: number) => Number((after / before).toFixed(2));

console.log(`building ${values.baseline} in a temporary directory…`);
const baseline = await exportBaseline(values.baseline);
execFileSync("npm", ["run", "build", "--silent"], { cwd: baseline.dir, stdio: ["ignore", "ignore", "inherit"] });
const { commit: current, dirty } = currentCheckout();
const servers: { name: "baseline" | "current"; dorsal: RunningDorsal }[] = [];
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
try {
  servers.push({ name: "baseline", dorsal: await startDorsal({ repoRoot: baseline.dir }) });
  servers.push({ name: "current", dorsal: await startDorsal() });
  const loads = new Map<string, Load[]>();
  for (const networkName of Object.keys(network) as NetworkName[]) {
    // One load each first: the runtimes read their files and Chromium warms up; not counted.
    for (const { dorsal } of servers) await coldLoad(browser, dorsal.url, network[networkName]);
    for (let run = 0; run < runs; run++) {
      // Which one goes first alternates: a load right after another pays for its teardown.
      for (const { name, dorsal } of run % 2 ? [...servers].reverse() : servers) {
        const key = `${name}/${networkName}`;
        loads.set(key, [...(loads.get(key) ?? []), await coldLoad(browser, dorsal.url, network[networkName])]);
      }
    }
  }

  const summary = (name: string) => {
    const loopback = loads.get(`${name}/loopback`) ?? [];
    const throttled = loads.get(`${name}/slow4g`) ?? [];
    return {
      wireKB: kB(median(loopback, "wireBytes")),
      decodedKB: kB(median(loopback, "decodedBytes")),
      jsWireKB: kB(median(loopback, "jsWireBytes")),
      jsDecodedKB: kB(median(loopback, "jsDecodedBytes")),
      reloadWireKB: kB(median(loopback, "reloadWireBytes")),
      loopbackMs: median(loopback, "ms"),
      slow4gMs: median(throttled, "ms"),
    };
  };
  const before = summary("baseline");
  const after = summary("current");
  for (const [label, figures] of [
    [`baseline ${baseline.commit}`, before],
    [`current ${current}${dirty ? " + uncommitted changes" : ""}`, after],
  ] as const) {
    console.log(
      `${label}: ${figures.wireKB} kB on the wire (${figures.decodedKB} kB decoded), JS ${figures.jsWireKB} kB ` +
        `(${figures.jsDecodedKB} kB decoded); reload ${figures.reloadWireKB} kB; h1 after ` +
        `${figures.loopbackMs} ms on loopback, ${figures.slow4gMs} ms on Slow 4G (medians of ${runs})`,
    );
  }
  const ratios = {
    wire: ratio(after.wireKB, before.wireKB),
    jsWire: ratio(after.jsWireKB, before.jsWireKB),
    loopbackMs: ratio(after.loopbackMs, before.loopbackMs),
    slow4gMs: ratio(after.slow4gMs, before.slow4gMs),
  };
  console.log(
    `current / baseline: bytes on the wire ${ratios.wire}, JS on the wire ${ratios.jsWire}, ` +
      `time to h1 ${ratios.loopbackMs} on loopback, ${ratios.slow4gMs} on Slow 4G`,
  );
  console.log(JSON.stringify({ runs, baseline: baseline.commit, current, dirty, before, after, ratios }));
} finally {
  await browser.close();
  for (const { dorsal } of servers) await dorsal.stop();
  await rm(baseline.dir, { recursive: true, force: true });
}
