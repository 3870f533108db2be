import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

// Every App of a test file synthesizes here (CDK reads CDK_OUTDIR), removed once the file is done:
// left to CDK, each synth keeps its own cloud assembly (~0.5 GB of bundled Lambdas) in the temp dir.
const outdir = mkdtempSync(path.join(tmpdir(), "dorsal-cdk-test-"));
process.env.CDK_OUTDIR = outdir;
// With CDK_OUTDIR set, CDK takes every App for the CLI's and synthesizes it again when the process
// is about to exit (autoSynth), into the folder removed below: ENOENT on tree.json, as unhandled
// errors that failed a CI run. The tests synthesize what they check themselves.
const exitListenersBefore = new Set(process.listeners("beforeExit"));
afterAll(() => {
  for (const listener of process.listeners("beforeExit")) {
    if (!exitListenersBefore.has(listener)) process.off("beforeExit", listener);
  }
  rmSync(outdir, { recursive: true, force: true });
});
