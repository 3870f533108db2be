import { getSettings, resetSales, storageStatus } from "../../app/settings";
import { getContainer } from "../../compose";
import { createHttpHandler, route } from "../../http/handler";

export const handler = createHttpHandler(
  {
    "GET /api/settings": route({
      access: "public",
      run: ({ deps }) => getSettings(deps),
    }),
    "POST /api/admin/reset-sales": route({
      access: ["admin"],
      run: ({ deps }) => resetSales(deps),
    }),
    "GET /api/cloud/test": route({
      access: ["admin"],
      run: ({ deps }) => storageStatus(deps),
    }),
  },
  getContainer,
);
