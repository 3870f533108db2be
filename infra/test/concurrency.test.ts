import { App } from "aws-cdk-lib";
import { describe, expect, it } from "vitest";
import { capacity } from "../lib/capacity";
import { concurrencyVerdict, minimumUnreserved, reservesConcurrency } from "../lib/concurrency";

const needed = capacity.detectReservedConcurrency + capacity.variantsReservedConcurrency;

describe("the pre-deploy concurrency check", () => {
  it("passes an account with the default quota of 1000", () => {
    const verdict = concurrencyVerdict({ limit: 1000, unreserved: 1000, reservedByDorsal: 0 });
    expect(verdict.ok).toBe(true);
    expect(verdict.message).toContain(`Dorsal reserves ${needed}`);
  });

  it("refuses a new account's quota of 10, naming the limit to ask for and the flag that drops the reservations", () => {
    const verdict = concurrencyVerdict({ limit: 10, unreserved: 10, reservedByDorsal: 0 });
    expect(verdict.ok).toBe(false);
    expect(verdict.message).toContain(`at least ${needed + minimumUnreserved}`);
    expect(verdict.message).toContain("npx cdk deploy --all -c reservedConcurrency=false");
  });

  it("counts Dorsal's own reservations as available on a redeploy, and other functions' as taken", () => {
    // 185 exactly: Dorsal's 85 already reserved, 100 left unreserved.
    expect(concurrencyVerdict({ limit: 185, unreserved: 100, reservedByDorsal: needed }).ok).toBe(true);
    // Another app reserves 50 of a 200 quota: 150 unreserved, 50 reservable.
    const crowded = concurrencyVerdict({ limit: 200, unreserved: 150, reservedByDorsal: 0 });
    expect(crowded.ok).toBe(false);
    expect(crowded.message).toContain(`at least ${needed + minimumUnreserved + 50}`);
  });

  it("reads -c reservedConcurrency, on by default, and refuses a value that is neither true nor false", () => {
    expect(reservesConcurrency(new App())).toBe(true);
    expect(reservesConcurrency(new App({ context: { reservedConcurrency: "false" } }))).toBe(false);
    expect(reservesConcurrency(new App({ context: { reservedConcurrency: "true" } }))).toBe(true);
    expect(() => reservesConcurrency(new App({ context: { reservedConcurrency: "no" } }))).toThrow(/true or false/);
  });
});
