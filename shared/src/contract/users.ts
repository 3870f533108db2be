import { z } from "zod";
import { type EventAssignmentDto, idParam, type PublicUser, type UserListPage, userIdParam } from "../api";
import { assignEventRequest, createUserRequest, updateUserRequest } from "../staff-requests";
import { endpoint } from "./endpoint";

const userParams = z.object({ id: userIdParam });
const usersQuery = z.object({
  cursor: z.string().max(2000).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

/** Accounts and photographers' event assignments (the `users` function). */
export const usersApi = {
  list: endpoint<UserListPage>()({ method: "GET", path: "/api/users", access: ["admin"], query: usersQuery }),
  create: endpoint<{ success: true; user: PublicUser }>()({
    method: "POST",
    path: "/api/users",
    access: ["admin"],
    body: createUserRequest,
  }),
  update: endpoint<{ success: true; user: PublicUser }>()({
    method: "PUT",
    path: "/api/users/{id}",
    access: ["admin"],
    params: userParams,
    body: updateUserRequest,
  }),
  remove: endpoint<{ success: true }>()({
    method: "DELETE",
    path: "/api/users/{id}",
    access: ["admin"],
    params: userParams,
  }),
  // The upload screen offers a photographer their own events; the admin routes below stay admin-only.
  myEvents: endpoint<EventAssignmentDto[]>()({ method: "GET", path: "/api/users/me/events", access: ["photographer"] }),
  events: endpoint<EventAssignmentDto[]>()({
    method: "GET",
    path: "/api/users/{id}/events",
    access: ["admin"],
    params: userParams,
  }),
  assignEvent: endpoint<{ success: true; assignment: EventAssignmentDto }>()({
    method: "POST",
    path: "/api/users/{id}/events",
    access: ["admin"],
    params: userParams,
    body: assignEventRequest,
  }),
  unassignEvent: endpoint<{ success: true }>()({
    method: "DELETE",
    path: "/api/users/{id}/events/{eventId}",
    access: ["admin"],
    params: z.object({ id: userIdParam, eventId: idParam }),
  }),
};
