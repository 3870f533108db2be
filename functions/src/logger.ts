/** JSON lines on stdout/stderr: CloudWatch parses them in AWS, and they stay readable locally. */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(message: string, data?: unknown): void;
  info(message: string, data?: unknown): void;
  warn(message: string, data?: unknown): void;
  error(message: string, data?: unknown): void;
}

const describe = (data: unknown) =>
  data instanceof Error ? { error: data.name, message: data.message, stack: data.stack } : data;

export function createLogger(level: LogLevel): Logger {
  const write = (at: Exclude<LogLevel, "silent">) => (message: string, data?: unknown) => {
    if (order[at] < order[level]) return;
    const line = JSON.stringify({ level: at, time: new Date().toISOString(), message, data: describe(data) });
    (at === "error" || at === "warn" ? process.stderr : process.stdout).write(`${line}\n`);
  };
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}
