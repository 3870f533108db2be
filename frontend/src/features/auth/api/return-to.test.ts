import { describe, expect, it } from "vitest";
import { safeReturnTo } from "./return-to";

describe("safeReturnTo", () => {
  it("follows a page of this site, with its query", () => {
    expect(safeReturnTo("/search")).toBe("/search");
    expect(safeReturnTo("/photo-purchase?dorsal=42&eventId=3")).toBe("/photo-purchase?dorsal=42&eventId=3");
  });

  it("goes to the search when nothing was asked for", () => {
    expect(safeReturnTo(null)).toBe("/search");
    expect(safeReturnTo("")).toBe("/search");
  });

  it("never leaves the site", () => {
    for (const value of [
      "//evil.example",
      "/\\evil.example",
      "/\\/evil.example",
      "https://evil.example/search",
      "javascript:alert(1)",
      "search",
      " /search",
    ]) {
      expect(safeReturnTo(value)).toBe("/search");
    }
  });
});
