import type { Reporter, TestModule } from "vitest/node";

interface Span {
  start: number;
  end: number;
  files: number;
  /** Importing the files (their modules and suite callbacks) and their setup files. */
  importMs: number;
  /** Their tests and hooks. */
  testMs: number;
}

/**
 * Prints, after the run, each project's wall time (its first file queued to its last file's end)
 * beside the sum of its files' times, split into importing them and running their tests: with files
 * running side by side wall and sum differ, and the wall time is what `npm test` waits for (issue 20
 * asks for both). Each span's start and end, counted from the run's first file, show where projects
 * overlap and where a worker waited alone.
 */
export default class ProjectTimes implements Reporter {
  private readonly spans = new Map<string, Span>();

  onTestModuleQueued(testModule: TestModule): void {
    const name = testModule.project.name;
    const now = Date.now();
    const span = this.spans.get(name);
    if (span) span.start = Math.min(span.start, now);
    else this.spans.set(name, { start: now, end: now, files: 0, importMs: 0, testMs: 0 });
  }

  onTestModuleEnd(testModule: TestModule): void {
    const span = this.spans.get(testModule.project.name);
    if (!span) return;
    const diagnostic = testModule.diagnostic();
    span.end = Math.max(span.end, Date.now());
    span.files += 1;
    span.importMs += diagnostic.collectDuration + diagnostic.setupDuration;
    span.testMs += diagnostic.duration;
  }

  onTestRunEnd(): void {
    if (this.spans.size === 0) return;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const spans = [...this.spans].sort(([, a], [, b]) => a.start - b.start);
    const first = spans[0]?.[1].start ?? 0;
    const lines = spans.map(
      ([name, span]) =>
        `  ${name.padEnd(18)} ${String(span.files).padStart(3)} files  wall ${seconds(span.end - span.start).padStart(8)}` +
        `  files' sum: import ${seconds(span.importMs).padStart(7)}, tests ${seconds(span.testMs).padStart(8)}` +
        `  from +${seconds(span.start - first)} to +${seconds(span.end - first)}`,
    );
    console.log(`\nTime per project:\n${lines.join("\n")}\n`);
  }
}
