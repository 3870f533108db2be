import type { SystemSettingsDto } from "@dorsal/shared";
import { z } from "zod";
import type { Table } from "../ports/table";
import { keys } from "./keys";

/**
 * Spec §3/§9 system defaults. The photo price is the stored default 15000; the client's own
 * fallback of 10000 (used only when the call fails) is the purchase screen's business.
 */
export const systemSettingsDefaults = {
  photoPrice: 15000,
  currency: "COP",
  currencySymbol: "$",
  maxDownloads: 3,
  downloadValidityDays: 30,
} as const;

/** What the item may hold; anything else an operator wrote by hand is ignored, not served. */
const storedSettings = z.object({
  photoPrice: z.number().int().positive().optional(),
  currency: z.string().min(1).optional(),
  currencySymbol: z.string().min(1).optional(),
  maxDownloads: z.number().int().positive().optional(),
  downloadValidityDays: z.number().int().positive().optional(),
  updatedAt: z.string().optional(),
  salesResetAt: z.string().optional(),
});

export function createSettingsRepository(table: Table) {
  const read = async () => {
    const parsed = storedSettings.safeParse((await table.get<object>(keys.systemSettings())) ?? {});
    return parsed.success ? parsed.data : {};
  };

  return {
    async get(): Promise<SystemSettingsDto> {
      const stored = await read();
      const value = <K extends keyof typeof systemSettingsDefaults>(key: K) =>
        stored[key] ?? systemSettingsDefaults[key];
      return {
        photoPrice: value("photoPrice"),
        currency: value("currency"),
        currencySymbol: value("currencySymbol"),
        maxDownloads: value("maxDownloads"),
        downloadValidityDays: value("downloadValidityDays"),
        updatedAt: stored.updatedAt ?? null,
      };
    },

    /**
     * When the admin last reset the monthly sales counter, or null. Monthly sales count from the
     * later of this and the start of the month.
     */
    async salesResetAt(): Promise<Date | null> {
      const { salesResetAt } = await read();
      return salesResetAt ? new Date(salesResetAt) : null;
    },

    async resetSales(at: Date): Promise<void> {
      const stamp = at.toISOString();
      await table.update({
        key: keys.systemSettings(),
        set: { type: "systemSettings", salesResetAt: stamp, updatedAt: stamp },
      });
    },
  };
}
export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
