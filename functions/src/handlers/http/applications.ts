import {
  applicationListQuery,
  approveApplicationRequest,
  photographerApplicationRequest,
  rejectApplicationRequest,
} from "@dorsal/shared";
import { z } from "zod";
import { approveApplication, listApplications, rejectApplication, submitApplication } from "../../app/applications";
import type { SessionClaims } from "../../app/tokens";
import { getContainer } from "../../compose";
import { createHttpHandler, reply, route } from "../../http/handler";

const applicationParams = z.object({ id: z.string().regex(/^[a-z0-9]{10,40}$/) });

/** Admin-only routes always carry a session; the handler has checked it before `run`. */
const adminOf = (session: SessionClaims | undefined) => session as SessionClaims;

export const handler = createHttpHandler(
  {
    "POST /api/photographer-applications": route({
      access: "public",
      body: photographerApplicationRequest,
      run: async ({ deps, body }) => reply(201, await submitApplication(deps, body)),
    }),
    "GET /api/admin/photographer-applications": route({
      access: ["admin"],
      query: applicationListQuery,
      run: ({ deps, query }) => listApplications(deps, query),
    }),
    "POST /api/admin/photographer-applications/{id}/approve": route({
      access: ["admin"],
      params: applicationParams,
      body: approveApplicationRequest,
      run: ({ deps, session, params, body }) => approveApplication(deps, adminOf(session), params.id, body.eventId),
    }),
    "POST /api/admin/photographer-applications/{id}/reject": route({
      access: ["admin"],
      params: applicationParams,
      body: rejectApplicationRequest,
      run: ({ deps, session, params, body }) => rejectApplication(deps, adminOf(session), params.id, body.adminNotes),
    }),
  },
  getContainer,
);
