import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/**
 * `npm run test:faults`' closing table: each fault the suite tried (a test's name says what was
 * done and what must hold), and whether it held, file by file.
 */
export default class FaultTable implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const rows: string[] = [];
    let broken = 0;
    for (const testModule of [...testModules].sort((a, b) => a.moduleId.localeCompare(b.moduleId))) {
      const file = path.relative(process.cwd(), testModule.moduleId);
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        const verdict = state === "passed" ? "held" : state === "failed" ? "DID NOT HOLD" : state;
        if (state === "failed") broken++;
        rows.push(`| ${file} | ${test.fullName.replaceAll("|", "\\|")} | ${verdict} |`);
      }
    }
    if (rows.length === 0) return;
    console.log(
      [
        "",
        "What was tried, and what held:",
        "",
        "| file | fault and what must hold | result |",
        "|---|---|---|",
        ...rows,
        "",
        broken === 0 ? `All ${rows.length} held.` : `${broken} of ${rows.length} did not hold.`,
        "",
      ].join("\n"),
    );
  }
}
