import { existsSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { defaultEventConfig, type EventRecognitionConfig } from "@dorsal/shared";
import { eventRecognitionConfig } from "@dorsal/shared/staff-requests";
import type { Truth } from "./score";

export interface PhotoSet {
  name: string;
  dir: string;
  /** Photo path relative to `dir` → its ground truth, in the file's order. */
  truth: Map<string, Truth>;
  /** The event's recognition settings: the defaults, overridden by the set's optional event.json. */
  config: EventRecognitionConfig & { bibPattern: string };
  /** The fields event.json set: event knowledge that tuning must not override. */
  configured: ReadonlySet<string>;
}

/**
 * A set in the format of shared/data/README.md: a folder with gt.json beside the photos, and
 * optionally event.json holding that event's recognition settings in the configuration API's field
 * names (e.g. {"bibPattern": "^[A-Z]\\d{5}$", "minDigits": 5, "maxDigits": 5}).
 */
export function loadSet(dir: string): PhotoSet {
  const absolute = resolve(dir);
  const file = join(absolute, "gt.json");
  if (!existsSync(file)) throw new Error(`${file} not found: not a benchmark set`);
  const raw = JSON.parse(readFileSync(file, "utf8")) as Record<string, Truth>;
  const eventFile = join(absolute, "event.json");
  const event = existsSync(eventFile) ? (JSON.parse(readFileSync(eventFile, "utf8")) as Record<string, unknown>) : {};
  const parsed = eventRecognitionConfig.safeParse({ ...defaultEventConfig, ...event });
  if (!parsed.success) throw new Error(`${eventFile}: ${parsed.error.message}`);
  const known = new Set(Object.keys(parsed.data));
  const unknown = Object.keys(event).filter((field) => !known.has(field));
  if (unknown.length > 0) throw new Error(`${eventFile}: not recognition settings: ${unknown.join(", ")}`);
  return {
    name: basename(absolute),
    dir: absolute,
    truth: new Map(Object.entries(raw)),
    config: { ...parsed.data, bibPattern: parsed.data.bibPattern ?? defaultEventConfig.bibPattern },
    configured: new Set(Object.keys(event)),
  };
}
