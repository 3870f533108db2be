import { api } from "@dorsal/shared/contract";
import { confirmNotification, requestNotification, unsubscribeNotification } from "../../app/notifications";
import { getContainer } from "../../compose";
import { createHttpHandler, reply } from "../../http/handler";

export const handler = createHttpHandler(
  api.notifications,
  {
    request: async ({ deps, body, client }) => reply(202, await requestNotification(deps, body, client)),
    confirm: ({ deps, body }) => confirmNotification(deps, body.token),
    unsubscribe: ({ deps, body }) => unsubscribeNotification(deps, body.token),
  },
  getContainer,
);
