import {
  athleteAccessRequest,
  createEventRequest,
  deleteEventRequest,
  eventRecognitionConfig,
  idParam,
} from "@dorsal/shared";
import { z } from "zod";
import { deleteEvent } from "../../app/event-deletion";
import {
  createEvent,
  dashboardStats,
  eventSalesSummary,
  getEvent,
  getEventConfig,
  listEvents,
  setAthleteAccess,
  setFreePhotos,
  updateEventConfig,
} from "../../app/events";
import { deleteStartList, importStartList, listParticipants } from "../../app/start-lists";
import { getContainer } from "../../compose";
import { createHttpHandler, reply, route } from "../../http/handler";

export const handler = createHttpHandler(
  {
    "GET /api/events": route({ access: "public", run: ({ deps }) => listEvents(deps) }),
    "POST /api/events": route({
      access: ["admin"],
      body: createEventRequest,
      run: async ({ deps, body }) => reply(201, await createEvent(deps, body)),
    }),
    "GET /api/events/{id}": route({
      access: "public",
      params: z.object({ id: idParam }),
      run: ({ deps, params }) => getEvent(deps, params.id),
    }),
    "DELETE /api/events/{id}": route({
      access: ["admin"],
      params: z.object({ id: idParam }),
      body: deleteEventRequest,
      run: ({ deps, session, params, body, client }) =>
        deleteEvent(deps, session as NonNullable<typeof session>, params.id, body.adminPassword, client),
    }),
    "GET /api/dashboard/stats": route({ access: ["admin"], run: ({ deps }) => dashboardStats(deps) }),
    "GET /api/events/{id}/config": route({
      access: ["admin"],
      params: z.object({ id: idParam }),
      run: ({ deps, params }) => getEventConfig(deps, params.id),
    }),
    "PUT /api/events/{id}/config": route({
      access: ["admin"],
      params: z.object({ id: idParam }),
      body: eventRecognitionConfig,
      run: ({ deps, params, body }) => updateEventConfig(deps, params.id, body),
    }),
    // The event's start list (spec §3 participants): organizers only, as its other settings.
    "GET /api/events/{id}/participants": route({
      access: ["admin"],
      params: z.object({ id: idParam }),
      query: z.object({
        cursor: z.string().max(2000).optional(),
        limit: z.coerce.number().int().min(1).max(200).default(50),
      }),
      run: ({ deps, params, query }) => listParticipants(deps, params.id, query),
    }),
    "POST /api/events/{id}/participants/import": route({
      access: ["admin"],
      params: z.object({ id: idParam }),
      multipart: true,
      run: ({ deps, params, form, session }) =>
        importStartList(deps, params.id, form, (session as NonNullable<typeof session>).userId),
    }),
    "DELETE /api/events/{id}/participants": route({
      access: ["admin"],
      params: z.object({ id: idParam }),
      run: ({ deps, params }) => deleteStartList(deps, params.id),
    }),
    "POST /api/events/{id}/enable-free-photos": route({
      access: ["admin"],
      params: z.object({ id: idParam }),
      run: ({ deps, params }) => setFreePhotos(deps, params.id, true),
    }),
    "POST /api/events/{id}/athlete-access": route({
      access: ["admin"],
      params: z.object({ id: idParam }),
      body: athleteAccessRequest,
      run: ({ deps, params, body }) => setAthleteAccess(deps, params.id, body.requiresAthleteLogin),
    }),
    "GET /api/events/{id}/sales-summary": route({
      access: ["admin"],
      params: z.object({ id: idParam }),
      run: ({ deps, params }) => eventSalesSummary(deps, params.id),
    }),
    "POST /api/events/{id}/disable-free-photos": route({
      access: ["admin"],
      params: z.object({ id: idParam }),
      run: ({ deps, params }) => setFreePhotos(deps, params.id, false),
    }),
  },
  getContainer,
);
