import { preflightCheckNames } from "@dorsal/shared";
import { describe, expect, it } from "vitest";
import {
  checkLabels,
  eventOptionLabel,
  formatDuration,
  formatMegabytes,
  progressPercent,
  startFailureMessage,
  statusCounts,
} from "./format";

describe("preflight screen formats", () => {
  it("shows times under a second in ms, longer ones in seconds with one decimal (spec §9)", () => {
    expect(formatDuration(0)).toBe("0 ms");
    expect(formatDuration(999.4)).toBe("999 ms");
    expect(formatDuration(1000)).toBe("1,0 s");
    expect(formatDuration(12_345)).toBe("12,3 s");
  });

  it("shows memory in whole MB", () => {
    expect(formatMegabytes(0)).toBe("0 MB");
    expect(formatMegabytes(150.6 * 1024 * 1024)).toBe("151 MB");
    expect(formatMegabytes(2048 * 1024 * 1024)).toBe("2.048 MB");
  });

  it("names events as spec §2.7's selector does", () => {
    expect(eventOptionLabel({ id: 4, name: "Media Maratón" })).toBe("Media Maratón (ID: 4)");
  });

  it("has a Spanish label for every check the server makes", () => {
    for (const name of preflightCheckNames) expect(checkLabels[name]).toMatch(/\S/);
  });

  it("counts checks by status and shows progress as the share with a result", () => {
    const check = (status: "GREEN" | "YELLOW" | "RED") => ({ status });
    const checks = [check("GREEN"), check("GREEN"), check("YELLOW"), check("RED")];
    expect(statusCounts({ checks } as never)).toEqual({ GREEN: 2, YELLOW: 1, RED: 1 });
    expect(progressPercent({ checks, expectedChecks: 15 } as never)).toBe(27);
    expect(progressPercent({ checks: [], expectedChecks: 0 })).toBe(0);
  });

  it("falls back to the spec's unknown-error text when a failure has no message", () => {
    expect(startFailureMessage(new Error("Ya hay una validación en curso"))).toBe("Ya hay una validación en curso");
    expect(startFailureMessage(new Error(""))).toBe("Error desconocido durante la validación");
    expect(startFailureMessage(null)).toBe("Error desconocido durante la validación");
  });
});
