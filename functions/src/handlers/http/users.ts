import { assignEventRequest, createUserRequest, idParam, updateUserRequest } from "@dorsal/shared";
import { z } from "zod";
import {
  assignEvent,
  createUser,
  deleteUser,
  listAssignments,
  listUsers,
  unassignEvent,
  updateUser,
} from "../../app/users";
import { getContainer } from "../../compose";
import { createHttpHandler, reply, route } from "../../http/handler";

const userId = z.string().regex(/^[A-Za-z0-9_-]{6,64}$/);
const userParams = z.object({ id: userId });

export const handler = createHttpHandler(
  {
    "GET /api/users": route({ access: ["admin"], run: ({ deps }) => listUsers(deps) }),
    "POST /api/users": route({
      access: ["admin"],
      body: createUserRequest,
      run: async ({ deps, session, body }) =>
        reply(201, { success: true, user: await createUser(deps, body, session?.userId ?? null) }),
    }),
    "PUT /api/users/{id}": route({
      access: ["admin"],
      params: userParams,
      body: updateUserRequest,
      run: async ({ deps, session, params, body }) => ({
        success: true,
        user: await updateUser(deps, session as NonNullable<typeof session>, params.id, body),
      }),
    }),
    "DELETE /api/users/{id}": route({
      access: ["admin"],
      params: userParams,
      run: ({ deps, params }) => deleteUser(deps, params.id),
    }),
    // The upload screen offers a photographer their own events; the admin routes below stay admin-only.
    "GET /api/users/me/events": route({
      access: ["photographer"],
      run: ({ deps, session }) => listAssignments(deps, (session as NonNullable<typeof session>).userId),
    }),
    "GET /api/users/{id}/events": route({
      access: ["admin"],
      params: userParams,
      run: ({ deps, params }) => listAssignments(deps, params.id),
    }),
    "POST /api/users/{id}/events": route({
      access: ["admin"],
      params: userParams,
      body: assignEventRequest,
      run: async ({ deps, session, params, body }) =>
        reply(201, {
          success: true,
          assignment: await assignEvent(deps, session as NonNullable<typeof session>, params.id, body),
        }),
    }),
    "DELETE /api/users/{id}/events/{eventId}": route({
      access: ["admin"],
      params: z.object({ id: userId, eventId: idParam }),
      run: ({ deps, params }) => unassignEvent(deps, params.id, params.eventId),
    }),
  },
  getContainer,
);
