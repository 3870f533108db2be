import { z } from "zod";
import {
  type DashboardStats,
  type EventConfigDto,
  type EventDeletionDto,
  type EventDto,
  type EventSalesSummary,
  idParam,
} from "../api";
import { faceSearchSettingRequest } from "../face-search";
import {
  type ParticipantPage,
  participantsQuery,
  type StartListDeleteResponse,
  type StartListImportResponse,
} from "../participants";
import { athleteAccessRequest } from "../sales";
import { createEventRequest, deleteEventRequest, eventRecognitionConfig } from "../staff-requests";
import { endpoint } from "./endpoint";
import { eventsPublicApi } from "./events-public";

const eventParams = z.object({ id: idParam });

/** Events, their settings and start lists, and the admin dashboard's figures (the `events` function). */
export const eventsApi = {
  list: eventsPublicApi.list,
  create: endpoint<EventDto>()({ method: "POST", path: "/api/events", access: ["admin"], body: createEventRequest }),
  get: eventsPublicApi.get,
  // 202: the event is gone from every page at once; what it held is removed in the background.
  remove: endpoint<EventDeletionDto>()({
    method: "DELETE",
    path: "/api/events/{id}",
    access: ["admin"],
    params: eventParams,
    body: deleteEventRequest,
  }),
  // The deletions still running and those finished in the last day, newest first (the events screen).
  deletions: endpoint<EventDeletionDto[]>()({ method: "GET", path: "/api/event-deletions", access: ["admin"] }),
  dashboardStats: endpoint<DashboardStats>()({ method: "GET", path: "/api/dashboard/stats", access: ["admin"] }),
  config: endpoint<EventConfigDto>()({
    method: "GET",
    path: "/api/events/{id}/config",
    access: ["admin"],
    params: eventParams,
  }),
  updateConfig: endpoint<EventConfigDto>()({
    method: "PUT",
    path: "/api/events/{id}/config",
    access: ["admin"],
    params: eventParams,
    body: eventRecognitionConfig,
  }),
  // Apart from the recognition settings: switching it on describes the event's photos, off deletes what that kept.
  setFaceSearch: endpoint<EventConfigDto>()({
    method: "PUT",
    path: "/api/events/{id}/face-search",
    access: ["admin"],
    params: eventParams,
    body: faceSearchSettingRequest,
  }),
  // The event's start list (spec §3 participants): organizers only, as its other settings.
  participants: endpoint<ParticipantPage>()({
    method: "GET",
    path: "/api/events/{id}/participants",
    access: ["admin"],
    params: eventParams,
    query: participantsQuery,
  }),
  importParticipants: endpoint<StartListImportResponse>()({
    method: "POST",
    path: "/api/events/{id}/participants/import",
    access: ["admin"],
    params: eventParams,
    multipart: true,
  }),
  removeParticipants: endpoint<StartListDeleteResponse>()({
    method: "DELETE",
    path: "/api/events/{id}/participants",
    access: ["admin"],
    params: eventParams,
  }),
  enableFreePhotos: endpoint<EventDto>()({
    method: "POST",
    path: "/api/events/{id}/enable-free-photos",
    access: ["admin"],
    params: eventParams,
  }),
  athleteAccess: endpoint<EventDto>()({
    method: "POST",
    path: "/api/events/{id}/athlete-access",
    access: ["admin"],
    params: eventParams,
    body: athleteAccessRequest,
  }),
  salesSummary: endpoint<EventSalesSummary>()({
    method: "GET",
    path: "/api/events/{id}/sales-summary",
    access: ["admin"],
    params: eventParams,
  }),
  disableFreePhotos: endpoint<EventDto>()({
    method: "POST",
    path: "/api/events/{id}/disable-free-photos",
    access: ["admin"],
    params: eventParams,
  }),
};
