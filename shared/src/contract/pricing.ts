import { z } from "zod";
import { idParam } from "../api";
import { type EventPricingDto, eventPricingRequest } from "../pricing";
import { endpoint } from "./endpoint";

const eventParams = z.object({ id: idParam });

/** An event's prices (the `pricing` function). */
export const pricingApi = {
  get: endpoint<EventPricingDto>()({
    method: "GET",
    path: "/api/events/{id}/pricing",
    access: "public",
    params: eventParams,
  }),
  save: endpoint<EventPricingDto>()({
    method: "POST",
    path: "/api/events/{id}/pricing",
    access: ["admin"],
    params: eventParams,
    body: eventPricingRequest,
  }),
};
