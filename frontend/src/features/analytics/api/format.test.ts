import { describe, expect, it } from "vitest";
import { formatDuration, formatNumber, percentOf } from "./format";

describe("analytics formatting", () => {
  it("writes numbers as es-ES does, up to two decimals", () => {
    expect(formatNumber(12345)).toBe("12.345");
    expect(formatNumber(1.256)).toBe("1,26");
  });

  it("gives times under a second in ms and longer ones in seconds with one decimal", () => {
    expect(formatDuration(850.4)).toBe("850 ms");
    expect(formatDuration(999)).toBe("999 ms");
    expect(formatDuration(1000)).toBe("1,0 s");
    expect(formatDuration(2345)).toBe("2,3 s");
  });

  it("takes a share as a whole percent, and none of nothing", () => {
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(2, 0)).toBe(0);
  });
});
