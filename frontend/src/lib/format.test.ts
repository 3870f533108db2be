import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatBytes, formatCop, formatDateTime, formatEventDate } from "./format";

describe("formatCop", () => {
  it("writes pesos the Colombian way, without decimals", () => {
    expect(formatCop(0)).toBe("$ 0 COP");
    expect(formatCop(1_250_000.4)).toBe("$ 1.250.000 COP");
  });
});

describe("formatEventDate", () => {
  it("keeps the calendar day whatever the time zone", () => {
    expect(formatEventDate("2025-01-01")).toBe("1 de enero de 2025");
  });

  it("shows unexpected values as they came", () => {
    expect(formatEventDate("pronto")).toBe("pronto");
  });
});

describe("formatDateTime", () => {
  it("shows day, month, year, hour and minute in the Spanish short form", () => {
    const local = new Date(2026, 10, 23, 18, 5);
    expect(formatDateTime(local.toISOString())).toMatch(/^23\/11\/26,? 6:05\sp\.\s?m\.$/);
  });

  it("shows unexpected values as they came", () => {
    expect(formatDateTime("nunca")).toBe("nunca");
  });
});

describe("formatBytes", () => {
  it("uses KB below a megabyte and MB above", () => {
    expect(formatBytes(512 * 1024)).toBe("512 KB");
    expect(formatBytes(50 * 1024 * 1024)).toBe("50 MB");
  });
});

/**
 * Issue 17: three date styles on the same screens. Every date goes through this module.
 */
describe("dates on screen", () => {
  const frontend = path.resolve(import.meta.dirname, "..");
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return sources(full);
      return /\.tsx?$/.test(entry.name) && !entry.name.includes(".test.") ? [full] : [];
    });

  it("are formatted by lib/format.ts alone", () => {
    const ownFormats = sources(frontend)
      .filter((file) => file !== path.join(frontend, "lib", "format.ts"))
      .filter((file) => /Intl\.DateTimeFormat|toLocale(Date|Time)?String/.test(readFileSync(file, "utf8")))
      .map((file) => path.relative(frontend, file));
    expect(ownFormats).toEqual([]);
  });
});
