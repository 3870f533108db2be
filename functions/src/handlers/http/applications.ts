import { api } from "@dorsal/shared/contract";
import { approveApplication, listApplications, rejectApplication, submitApplication } from "../../app/applications";
import { getContainer } from "../../compose";
import { createHttpHandler, reply } from "../../http/handler";

export const handler = createHttpHandler(
  api.applications,
  {
    submit: async ({ deps, body }) => reply(201, await submitApplication(deps, body)),
    list: ({ deps, query }) => listApplications(deps, query),
    approve: ({ deps, session, params, body }) => approveApplication(deps, session, params.id, body.eventId),
    reject: ({ deps, session, params, body }) => rejectApplication(deps, session, params.id, body.adminNotes),
  },
  getContainer,
);
