import { describe, expect, it } from "vitest";
import type { AnalyticsDto } from "./analytics";
import {
  analyticsKpis,
  formatAnalyticsNumber,
  formatProcessingTime,
  percentOf,
  processingStates,
} from "./analytics-words";

describe("analytics formatting", () => {
  it("writes numbers as es-ES does, up to two decimals", () => {
    expect(formatAnalyticsNumber(12345)).toBe("12.345");
    expect(formatAnalyticsNumber(1.256)).toBe("1,26");
  });

  it("gives times under a second in ms and longer ones in seconds with one decimal", () => {
    expect(formatProcessingTime(850.4)).toBe("850 ms");
    expect(formatProcessingTime(999)).toBe("999 ms");
    expect(formatProcessingTime(1000)).toBe("1,0 s");
    expect(formatProcessingTime(2345)).toBe("2,3 s");
  });

  it("takes a share as a whole percent, and none of nothing", () => {
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(2, 0)).toBe(0);
  });
});

describe("analytics figures in words", () => {
  const data = {
    totalPhotos: 3,
    totalDorsals: 1,
    uniqueDorsals: 1,
    processedInRange: 1,
    processingRate: null,
    processingStats: { successful: 1, failed: 1, pending: 0, duplicates: 1 },
    salesStats: { totalSales: 2, totalRevenue: 20000, averageSaleAmount: 10000 },
  } as AnalyticsDto;

  it("words the headline figures in the singular and plural, the revenue in pesos, the period of the range", () => {
    expect(analyticsKpis(data, "7d")).toEqual([
      { label: "Fotos totales", value: "3", caption: "1 procesada" },
      { label: "Dorsales detectados", value: "1", caption: "1 dorsal único" },
      { label: "Velocidad de procesamiento", value: "—", caption: "1 procesada en los últimos 7 días" },
      { label: "Ventas", value: "$ 20.000 COP", caption: "2 ventas en los últimos 7 días" },
    ]);
  });

  it("keeps the labels while the figures load", () => {
    expect(analyticsKpis(undefined, "24h").map((kpi) => [kpi.label, kpi.value, kpi.caption])).toEqual([
      ["Fotos totales", undefined, undefined],
      ["Dorsales detectados", undefined, undefined],
      ["Velocidad de procesamiento", undefined, undefined],
      ["Ventas", undefined, undefined],
    ]);
  });

  it("gives each processing state its share of all photos", () => {
    expect(processingStates(data)).toEqual([
      { label: "Exitosas", count: 1, percent: 33 },
      { label: "Fallidas", count: 1, percent: 33 },
      { label: "Pendientes", count: 0, percent: 0 },
      { label: "Duplicadas", count: 1, percent: 33 },
    ]);
  });
});
