import { api } from "@dorsal/shared/contract";
import { deleteEvent, listEventDeletions } from "../../app/event-deletion";
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
import { setFaceSearch } from "../../app/face-search";
import { deleteStartList, importStartList, listParticipants } from "../../app/start-lists";
import { getContainer } from "../../compose";
import { createHttpHandler, reply } from "../../http/handler";

export const handler = createHttpHandler(
  api.events,
  {
    list: ({ deps, session }) => listEvents(deps, { asAdmin: session?.role === "admin" }),
    create: async ({ deps, body }) => reply(201, await createEvent(deps, body)),
    get: ({ deps, params }) => getEvent(deps, params.id),
    remove: async ({ deps, session, params, body, client }) =>
      reply(202, await deleteEvent(deps, session, params.id, body.adminPassword, client)),
    deletions: ({ deps }) => listEventDeletions(deps),
    dashboardStats: ({ deps }) => dashboardStats(deps),
    config: ({ deps, params }) => getEventConfig(deps, params.id),
    updateConfig: ({ deps, params, body }) => updateEventConfig(deps, params.id, body),
    setFaceSearch: ({ deps, params, body }) => setFaceSearch(deps, params.id, body.enabled),
    participants: ({ deps, params, query }) => listParticipants(deps, params.id, query),
    importParticipants: ({ deps, params, form, session }) => importStartList(deps, params.id, form, session.userId),
    removeParticipants: ({ deps, params }) => deleteStartList(deps, params.id),
    enableFreePhotos: ({ deps, params }) => setFreePhotos(deps, params.id, true),
    athleteAccess: ({ deps, params, body }) => setAthleteAccess(deps, params.id, body.requiresAthleteLogin),
    salesSummary: ({ deps, params }) => eventSalesSummary(deps, params.id),
    disableFreePhotos: ({ deps, params }) => setFreePhotos(deps, params.id, false),
  },
  getContainer,
);
