import type { PublicSettingsDto, ResetSalesResponse, StorageStatusDto } from "@dorsal/shared";
import type { Deps } from "./deps";

/** Public system settings (spec §3 system_settings; the purchase screen reads photoPrice). */
export const getSettings = async (deps: Deps): Promise<PublicSettingsDto> => ({
  ...(await deps.settings.get()),
  supportPhone: deps.config.SUPPORT_PHONE ?? null,
});

/**
 * 'Resetear contador de ventas' (spec §2.7): nothing is deleted; the reset time is stored and the
 * dashboard's monthly sales count from the later of it and the start of the month.
 */
export async function resetSales(deps: Deps): Promise<ResetSalesResponse> {
  const at = deps.clock.now();
  await deps.settings.resetSales(at);
  return { success: true, salesResetAt: at.toISOString() };
}

/** Where photo objects live in the originals bucket (storage-paths.ts); ZIPs waiting to be extracted are not photos. */
const photosPrefix = "eventos/";
/** A listing page holds up to 1000 keys: 10 pages keep the check under a second or two. */
const maxListedPages = 10;

/**
 * Storage status (spec §3, polled every 30 s by the settings screen): lists the originals bucket
 * through the object-store port, up to a page cap so a large bucket still answers fast (the
 * totals then say `truncated`). A failure is a status to show, not an error: `connected: false`.
 */
export async function storageStatus(deps: Deps): Promise<StorageStatusDto> {
  const status = {
    bucketName: deps.objects.bucketName("originals"),
    // On AWS the function's own role grants access; locally the embedded store takes a fixed key.
    credentialsType: deps.config.DORSAL_RUNTIME === "aws" ? "iam-role" : "local",
    credentialsConfigured: true,
  } as const;
  let totalFiles = 0;
  let totalSize = 0;
  let cursor: string | undefined;
  let pages = 0;
  try {
    do {
      const page = await deps.objects.list("originals", photosPrefix, cursor);
      totalFiles += page.objects.length;
      for (const object of page.objects) totalSize += object.size;
      cursor = page.cursor;
      pages += 1;
    } while (cursor && pages < maxListedPages);
  } catch (error) {
    return {
      ...status,
      connected: false,
      totalFiles: 0,
      totalSize: 0,
      truncated: false,
      error: error instanceof Error ? error.message : String(error),
    };
  }
  return { ...status, connected: true, totalFiles, totalSize, truncated: cursor !== undefined, error: null };
}
