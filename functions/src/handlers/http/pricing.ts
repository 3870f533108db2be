import { eventPricingRequest, idParam } from "@dorsal/shared";
import { z } from "zod";
import { getEventPricing, saveEventPricing } from "../../app/pricing";
import { getContainer } from "../../compose";
import { createHttpHandler, route } from "../../http/handler";

const eventParams = z.object({ id: idParam });

export const handler = createHttpHandler(
  {
    "GET /api/events/{id}/pricing": route({
      access: "public",
      params: eventParams,
      run: ({ deps, params }) => getEventPricing(deps, params.id),
    }),
    "POST /api/events/{id}/pricing": route({
      access: ["admin"],
      params: eventParams,
      body: eventPricingRequest,
      run: ({ deps, params, body }) => saveEventPricing(deps, params.id, body),
    }),
  },
  getContainer,
);
