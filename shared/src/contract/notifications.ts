import { type NotifyAnswer, notifyRequest, notifyTokenRequest } from "../notifications";
import { endpoint } from "./endpoint";

/**
 * 'Avísame cuando estén mis fotos' (the `notifications` function): the athlete's request, and the
 * two emailed links' actions. Each link's page shows first and acts on a POST, since mail scanners
 * follow GET links.
 */
export const notificationsApi = {
  /** 202 whatever the address: the same answer whether or not it asked before. */
  request: endpoint<NotifyAnswer>()({
    method: "POST",
    path: "/api/notifications",
    access: "public",
    body: notifyRequest,
  }),
  confirm: endpoint<NotifyAnswer>()({
    method: "POST",
    path: "/api/notifications/confirm",
    access: "public",
    body: notifyTokenRequest,
  }),
  unsubscribe: endpoint<NotifyAnswer>()({
    method: "POST",
    path: "/api/notifications/unsubscribe",
    access: "public",
    body: notifyTokenRequest,
  }),
};
