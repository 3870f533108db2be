import type { DashboardStats } from "@dorsal/shared";
import { describe, expect, it } from "vitest";
import { salesComparison, statCaptions } from "./captions";

const stats: DashboardStats = {
  activeEvents: 3,
  processedPhotos: 1500,
  detectedDorsals: 1700,
  monthlySales: 0,
  eventsCreatedThisMonth: 2,
  processedToday: 1234,
  photosWithBibPercent: 87,
  previousMonthSales: 0,
};

describe("statCaptions", () => {
  it("compares each figure with its real reference, formatted es-CO", () => {
    expect(statCaptions(stats)).toEqual({
      activeEvents: "+2 este mes",
      processedPhotos: "+1.234 hoy",
      detectedDorsals: "87% fotos con dorsal",
      monthlySales: "sin ventas el mes anterior",
    });
  });

  it("says so when no photo has been processed yet instead of a percent of nothing", () => {
    expect(statCaptions({ ...stats, photosWithBibPercent: null }).detectedDorsals).toBe("aún no hay fotos procesadas");
  });
});

describe("salesComparison", () => {
  it("gives the change against last month as a signed whole percent", () => {
    expect(salesComparison(115_000, 100_000)).toBe("+15% vs mes anterior");
    expect(salesComparison(50_000, 150_000)).toBe("-67% vs mes anterior");
    expect(salesComparison(100_000, 100_000)).toBe("0% vs mes anterior");
  });

  it("has nothing to compare with when last month sold nothing", () => {
    expect(salesComparison(0, 0)).toBe("sin ventas el mes anterior");
    expect(salesComparison(30_000, 0)).toBe("sin ventas el mes anterior");
  });
});
