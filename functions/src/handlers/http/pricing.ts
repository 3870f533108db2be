import { api } from "@dorsal/shared/contract";
import { getEventPricing, saveEventPricing } from "../../app/pricing";
import { getContainer } from "../../compose";
import { createHttpHandler } from "../../http/handler";

export const handler = createHttpHandler(
  api.pricing,
  {
    get: ({ deps, params }) => getEventPricing(deps, params.id),
    save: ({ deps, params, body }) => saveEventPricing(deps, params.id, body),
  },
  getContainer,
);
