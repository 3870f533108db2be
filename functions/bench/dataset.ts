import { existsSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { Truth } from "./score";

export interface PhotoSet {
  name: string;
  dir: string;
  /** Photo path relative to `dir` → its ground truth, in the file's order. */
  truth: Map<string, Truth>;
}

/** A set in the format of shared/data/README.md: a folder with gt.json beside the photos. */
export function loadSet(dir: string): PhotoSet {
  const absolute = resolve(dir);
  const file = join(absolute, "gt.json");
  if (!existsSync(file)) throw new Error(`${file} not found: not a benchmark set`);
  const raw = JSON.parse(readFileSync(file, "utf8")) as Record<string, Truth>;
  return { name: basename(absolute), dir: absolute, truth: new Map(Object.entries(raw)) };
}
