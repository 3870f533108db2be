import { readFile } from "node:fs/promises";

/** Linux's USER_HZ, fixed at 100 on every architecture Node runs on. */
const clockTicksPerSecond = 100;

/** CPU seconds a process (all its threads) has used so far, from /proc. */
export async function cpuSecondsOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  // Fields after the command's closing parenthesis; utime and stime are the 14th and 15th overall.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / clockTicksPerSecond;
}

/** A process's resident memory now and its high-water mark, in MB, from /proc. */
export async function memoryOf(pid: number): Promise<{ rssMb: number; peakMb: number }> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
  return { rssMb: field("VmRSS"), peakMb: field("VmHWM") };
}
