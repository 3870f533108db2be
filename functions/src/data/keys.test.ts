import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as keyModule from "./keys";

/** The fixed words of every key the module builds (`EVENT`, `PRICING`, `ASSIGN`…), from the keys themselves. */
function keyWords(): string[] {
  const values: string[] = [];
  const collect = (value: unknown) => {
    if (typeof value === "string") values.push(value);
    else if (typeof value === "function") collect(value("1", "1", "1"));
    else if (value && typeof value === "object") for (const inner of Object.values(value)) collect(inner);
  };
  collect(keyModule);
  return [...new Set(values.flatMap((value) => value.match(/[A-Z][A-Z_]{2,}/g) ?? []))].sort();
}

describe("docs/data-model.md", () => {
  it("documents every kind of key the key module builds", async () => {
    const doc = await readFile(path.resolve(import.meta.dirname, "../../../docs/data-model.md"), "utf8");
    const words = keyWords();
    expect(words).toEqual(expect.arrayContaining(["EVENT", "PHOTO", "USER"]));
    // Each word sits in a documented key next to a `#` (`EVENT#{id}`, `PHOTOS#FAILED`) or alone (`USERS`).
    const documented = (word: string) => [`${word}#`, `#${word}`, `\`${word}\``].some((form) => doc.includes(form));
    expect(words.filter((word) => !documented(word))).toEqual([]);
  });
});
