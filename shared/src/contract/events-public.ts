import { z } from "zod";
import { type EventDto, idParam } from "../api";
import { endpoint } from "./endpoint";

/**
 * The `events` group's public routes, the event picker's: apart from the organizers' (events.ts,
 * which holds these too) so /search's first load builds neither those routes nor their schemas
 * (issue 20).
 */
export const eventsPublicApi = {
  list: endpoint<EventDto[]>()({ method: "GET", path: "/api/events", access: "public" }),
  get: endpoint<EventDto>()({
    method: "GET",
    path: "/api/events/{id}",
    access: "public",
    params: z.object({ id: idParam }),
  }),
};
