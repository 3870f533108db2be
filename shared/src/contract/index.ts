// As the package's index does: a server that reaches the schemas only through the contract still
// answers in Spanish (zod-messages.ts).
import "../zod-messages";
import { adminApi } from "./admin";
import { applicationsApi } from "./applications";
import { authApi } from "./auth";
import { browseApi } from "./browse";
import { codesApi } from "./codes";
import { driveApi } from "./drive";
import { eventsApi } from "./events";
import { facesApi } from "./faces";
import { notificationsApi } from "./notifications";
import { photosApi } from "./photos";
import { pricingApi } from "./pricing";
import { salesApi } from "./sales";
import { settingsApi } from "./settings";
import { usersApi } from "./users";

export * from "./endpoint";
export {
  adminApi,
  applicationsApi,
  authApi,
  browseApi,
  codesApi,
  driveApi,
  eventsApi,
  facesApi,
  notificationsApi,
  photosApi,
  pricingApi,
  salesApi,
  settingsApi,
  usersApi,
};

/**
 * The whole HTTP API, grouped by the Lambda function that serves each route. It builds API
 * Gateway's routes (infra) and the local runtime's route table; each function implements exactly
 * its group. The browser imports only the groups a screen calls (`@dorsal/shared/contract/users`,
 * `apiCall(usersApi.list)`): this object would put every route in /search's first load.
 */
export const api = {
  auth: authApi,
  events: eventsApi,
  photos: photosApi,
  users: usersApi,
  admin: adminApi,
  applications: applicationsApi,
  pricing: pricingApi,
  settings: settingsApi,
  sales: salesApi,
  codes: codesApi,
  browse: browseApi,
  notifications: notificationsApi,
  drive: driveApi,
  faces: facesApi,
};

export type Api = typeof api;
export type HttpResource = keyof Api;
