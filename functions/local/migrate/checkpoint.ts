import { appendFile, mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Item } from "./items";

/** The table's progress: where the scan goes on from, and what it did so far. */
export interface ItemsProgress {
  /** Where the next page starts; null before the first page and once the last one is done. */
  cursor: Item | null;
  complete: boolean;
  seen: number;
  written: number;
  unchanged: number;
}

/** An object copied (or found equal) at the target: the source version it came from and its bytes' hash. */
export interface CopiedObject {
  etag: string;
  size: number;
  sha256: string;
}

type Line =
  | ({ t: "items" } & ItemsProgress)
  | ({ t: "object"; id: string } & CopiedObject)
  | { t: "object-bad"; id: string };

/**
 * A migration's progress, one JSON line appended per step done (a page of items, an object), so a
 * run killed anywhere loses at most the step it was in, and a line cut short by the kill is ignored.
 * Kept in the source data dir under `migrations/`, one file per target: never copied, never shared.
 */
export interface Checkpoint {
  file: string;
  /** Whether an earlier run of this migration left progress. */
  resumed: boolean;
  items: ItemsProgress | undefined;
  objects: Map<string, CopiedObject>;
  saveItems(progress: ItemsProgress): Promise<void>;
  saveObject(id: string, copied: CopiedObject): Promise<void>;
  /** Verification found the target's copy different: the next run copies it again. */
  forgetObject(id: string): Promise<void>;
}

export async function openCheckpoint(dataDir: string, targetId: string): Promise<Checkpoint> {
  const file = path.join(dataDir, "migrations", `${targetId}.jsonl`);
  await mkdir(path.dirname(file), { recursive: true });
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return "";
    throw error;
  });
  let items: ItemsProgress | undefined;
  const objects = new Map<string, CopiedObject>();
  for (const raw of text.split("\n")) {
    let line: Line;
    try {
      line = JSON.parse(raw) as Line;
    } catch {
      continue;
    }
    if (line.t === "items") items = { ...line };
    else if (line.t === "object") objects.set(line.id, { etag: line.etag, size: line.size, sha256: line.sha256 });
    else if (line.t === "object-bad") objects.delete(line.id);
  }
  const append = (line: Line) => appendFile(file, `${JSON.stringify(line)}\n`);
  return {
    file,
    resumed: text.trim().length > 0,
    items,
    objects,
    async saveItems(progress) {
      await append({ t: "items", ...progress });
    },
    async saveObject(id, copied) {
      objects.set(id, copied);
      await append({ t: "object", id, ...copied });
    },
    async forgetObject(id) {
      objects.delete(id);
      await append({ t: "object-bad", id });
    },
  };
}
