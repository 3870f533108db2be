import { access, unlink, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Left in DATA_DIR by a stop that let every write finish (`close`), taken by the next start: only
 * then may the start skip recounting the counters, which a kill can leave a write behind.
 */
export const cleanStopFile = "stopped-cleanly";

export async function markCleanStop(dataDir: string): Promise<void> {
  await writeFile(path.join(dataDir, cleanStopFile), new Date().toISOString());
}

export async function takeCleanStopMark(dataDir: string): Promise<boolean> {
  try {
    await unlink(path.join(dataDir, cleanStopFile));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/** Whether the last runtime on this data dir stopped cleanly, leaving the mark for its next start. */
export async function stoppedCleanly(dataDir: string): Promise<boolean> {
  return access(path.join(dataDir, cleanStopFile)).then(
    () => true,
    () => false,
  );
}
