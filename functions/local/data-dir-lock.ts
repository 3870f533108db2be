import { open, readFile, unlink } from "node:fs/promises";
import path from "node:path";

/**
 * Who is using a data dir now: the runtime (`npm start`) or a migration (`npm run migrate`). Two
 * processes on the same LevelDB and s3rver files would each see a store the other is changing; a
 * migration copying from a live runtime would copy a table that moves under it. The file holds the
 * holder's process id, so one left by a killed process (not alive any more) is taken over.
 */
export type DataDirHolder = "runtime" | "migration";

const lockFile = "in-use.json";

export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: DataDirHolder,
    readonly pid: number,
  ) {
    super(
      holder === "runtime"
        ? `Dorsal está usando ${dataDir} (proceso ${pid}). Detenlo con Ctrl-C y vuelve a intentarlo.`
        : `Una migración está usando ${dataDir} (proceso ${pid}). Espera a que termine o detenla con Ctrl-C.`,
    );
    this.name = "DataDirBusyError";
  }
}

/** Takes the data dir for `holder`, or throws DataDirBusyError; the returned function gives it back. */
export async function lockDataDir(dataDir: string, holder: DataDirHolder): Promise<() => Promise<void>> {
  const file = path.join(dataDir, lockFile);
  const record = JSON.stringify({ holder, pid: process.pid, since: new Date().toISOString() });
  for (;;) {
    try {
      const handle = await open(file, "wx");
      await handle.writeFile(record);
      await handle.close();
      return () => unlink(file).catch(() => undefined);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const current = await currentHolder(file);
    if (current && alive(current.pid)) throw new DataDirBusyError(dataDir, current.holder, current.pid);
    // Left by a process that is gone (killed): no one holds it.
    await unlink(file).catch(() => undefined);
  }
}

async function currentHolder(file: string): Promise<{ holder: DataDirHolder; pid: number } | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, "utf8")) as { holder?: unknown; pid?: unknown };
    if ((parsed.holder === "runtime" || parsed.holder === "migration") && typeof parsed.pid === "number") {
      return { holder: parsed.holder, pid: parsed.pid };
    }
    return undefined;
  } catch {
    // Written by a process killed between creating and filling it, or already removed.
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
