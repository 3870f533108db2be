import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

// Every App of a test file synthesizes here (CDK reads CDK_OUTDIR), removed once the file is done:
// left to CDK, each synth keeps its own cloud assembly (~0.5 GB of bundled Lambdas) in the temp dir.
const outdir = mkdtempSync(path.join(tmpdir(), "dorsal-cdk-test-"));
process.env.CDK_OUTDIR = outdir;
afterAll(() => rmSync(outdir, { recursive: true, force: true }));
