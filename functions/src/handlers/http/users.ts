import { api } from "@dorsal/shared/contract";
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
import { createHttpHandler, reply } from "../../http/handler";

export const handler = createHttpHandler(
  api.users,
  {
    list: ({ deps, query }) => listUsers(deps, query),
    create: async ({ deps, session, body }) =>
      reply(201, { success: true, user: await createUser(deps, body, session.userId) }),
    update: async ({ deps, session, params, body }) => ({
      success: true,
      user: await updateUser(deps, session, params.id, body),
    }),
    remove: ({ deps, params }) => deleteUser(deps, params.id),
    myEvents: ({ deps, session }) => listAssignments(deps, session.userId),
    events: ({ deps, params }) => listAssignments(deps, params.id),
    assignEvent: async ({ deps, session, params, body }) =>
      reply(201, { success: true, assignment: await assignEvent(deps, session, params.id, body) }),
    unassignEvent: ({ deps, params }) => unassignEvent(deps, params.id, params.eventId),
  },
  getContainer,
);
