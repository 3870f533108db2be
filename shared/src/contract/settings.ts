import type { MigrateToCloudResponse, PublicSettingsDto, ResetSalesResponse, StorageStatusDto } from "../api";
import { endpoint } from "./endpoint";

/** System settings and the storage check of the settings screen (the `settings` function). */
export const settingsApi = {
  get: endpoint<PublicSettingsDto>()({ method: "GET", path: "/api/settings", access: "public" }),
  resetSales: endpoint<ResetSalesResponse>()({ method: "POST", path: "/api/admin/reset-sales", access: ["admin"] }),
  storageStatus: endpoint<StorageStatusDto>()({ method: "GET", path: "/api/cloud/test", access: ["admin"] }),
  migrateToCloud: endpoint<MigrateToCloudResponse>()({
    method: "POST",
    path: "/api/demo/migrate-to-cloud",
    access: ["admin"],
  }),
};
