import { api } from "@dorsal/shared/contract";
import { getSettings, migrateToCloud, resetSales, storageStatus } from "../../app/settings";
import { getContainer } from "../../compose";
import { createHttpHandler } from "../../http/handler";

export const handler = createHttpHandler(
  api.settings,
  {
    get: ({ deps }) => getSettings(deps),
    resetSales: ({ deps }) => resetSales(deps),
    storageStatus: ({ deps }) => storageStatus(deps),
    migrateToCloud: async ({ deps }) => migrateToCloud(deps),
  },
  getContainer,
);
