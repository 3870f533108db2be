import type { Reporter, TestModule } from "vitest/node";

interface Span {
  start: number;
  end: number;
  files: number;
  fileMs: number;
}

/**
 * Prints, after the run, each project's wall time (its first file's start to its last file's end)
 * beside the sum of its files' times: with files running side by side the two differ, and the wall
 * time is what `npm test` waits for (issue 20 asks for both). Each span's start and end, counted
 * from the first file's start, show where projects overlap and where a worker waited alone.
 */
export default class ProjectTimes implements Reporter {
  private readonly spans = new Map<string, Span>();

  onTestModuleStart(testModule: TestModule): void {
    const name = testModule.project.name;
    const now = Date.now();
    const span = this.spans.get(name);
    if (span) span.start = Math.min(span.start, now);
    else this.spans.set(name, { start: now, end: now, files: 0, fileMs: 0 });
  }

  onTestModuleEnd(testModule: TestModule): void {
    const span = this.spans.get(testModule.project.name);
    if (!span) return;
    span.end = Math.max(span.end, Date.now());
    span.files += 1;
    span.fileMs += testModule.diagnostic().duration;
  }

  onTestRunEnd(): void {
    if (this.spans.size === 0) return;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const spans = [...this.spans].sort(([, a], [, b]) => a.start - b.start);
    const first = spans[0]?.[1].start ?? 0;
    const lines = spans.map(
      ([name, span]) =>
        `  ${name.padEnd(12)} ${String(span.files).padStart(3)} files  wall ${seconds(span.end - span.start).padStart(8)}  files' sum ${seconds(span.fileMs).padStart(8)}  from +${seconds(span.start - first)} to +${seconds(span.end - first)}`,
    );
    console.log(`\nTime per project:\n${lines.join("\n")}\n`);
  }
}
