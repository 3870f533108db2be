/**
 * Every HTTP route, in one table: CDK creates the API Gateway routes from it and the local server
 * matches requests against it, so both runtimes expose exactly the same API.
 * `handler` names the file in handlers/http/ (one Lambda function per file).
 */
export const httpHandlers = [
  "auth",
  "events",
  "photos",
  "users",
  "admin",
  "applications",
  "pricing",
  "settings",
  "sales",
  "codes",
  "browse",
] as const;
export type HttpHandlerName = (typeof httpHandlers)[number];

export interface RouteDefinition {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** API Gateway syntax: `{name}` path parameters. */
  path: string;
  handler: HttpHandlerName;
}

export const httpRoutes = [
  { method: "POST", path: "/api/auth/login", handler: "auth" },
  { method: "GET", path: "/api/auth/me", handler: "auth" },
  { method: "POST", path: "/api/admin/change-password", handler: "auth" },
  { method: "PUT", path: "/api/users/{id}/password", handler: "auth" },
  { method: "GET", path: "/api/settings", handler: "settings" },
  { method: "POST", path: "/api/admin/reset-sales", handler: "settings" },
  { method: "GET", path: "/api/cloud/test", handler: "settings" },
  { method: "GET", path: "/api/events", handler: "events" },
  { method: "POST", path: "/api/events", handler: "events" },
  { method: "GET", path: "/api/events/{id}", handler: "events" },
  { method: "DELETE", path: "/api/events/{id}", handler: "events" },
  { method: "GET", path: "/api/dashboard/stats", handler: "events" },
  { method: "GET", path: "/api/events/{id}/config", handler: "events" },
  { method: "PUT", path: "/api/events/{id}/config", handler: "events" },
  { method: "POST", path: "/api/events/{id}/enable-free-photos", handler: "events" },
  { method: "POST", path: "/api/events/{id}/disable-free-photos", handler: "events" },
  { method: "GET", path: "/api/events/{id}/sales-summary", handler: "events" },
  { method: "GET", path: "/api/events/{id}/photos", handler: "photos" },
  { method: "POST", path: "/api/events/{id}/reindex", handler: "photos" },
  { method: "POST", path: "/api/events/{id}/photos/{photoId}/bibs", handler: "photos" },
  { method: "DELETE", path: "/api/events/{id}/photos/{photoId}/bibs/{dorsal}", handler: "photos" },
  { method: "POST", path: "/api/photos/presign", handler: "photos" },
  { method: "POST", path: "/api/photos/upload", handler: "photos" },
  { method: "POST", path: "/api/photos/resume-upload", handler: "photos" },
  { method: "POST", path: "/api/emergency/mobile-upload", handler: "photos" },
  { method: "POST", path: "/api/photos/uploads", handler: "photos" },
  { method: "POST", path: "/api/photos/uploads/sign", handler: "photos" },
  { method: "POST", path: "/api/photos/upload-zip", handler: "photos" },
  { method: "POST", path: "/api/photos/zip-batches", handler: "photos" },
  { method: "GET", path: "/api/photos/batch-status/{batchId}", handler: "photos" },
  { method: "GET", path: "/api/photos/search", handler: "photos" },
  { method: "GET", path: "/api/photos/{id}", handler: "photos" },
  { method: "GET", path: "/api/users", handler: "users" },
  { method: "POST", path: "/api/users", handler: "users" },
  { method: "DELETE", path: "/api/users/{id}", handler: "users" },
  { method: "PUT", path: "/api/users/{id}", handler: "users" },
  { method: "GET", path: "/api/users/me/events", handler: "users" },
  { method: "GET", path: "/api/users/{id}/events", handler: "users" },
  { method: "POST", path: "/api/users/{id}/events", handler: "users" },
  { method: "DELETE", path: "/api/users/{id}/events/{eventId}", handler: "users" },
  { method: "POST", path: "/api/photographer-applications", handler: "applications" },
  { method: "GET", path: "/api/admin/photographer-applications", handler: "applications" },
  { method: "POST", path: "/api/admin/photographer-applications/{id}/approve", handler: "applications" },
  { method: "POST", path: "/api/admin/photographer-applications/{id}/reject", handler: "applications" },
  { method: "GET", path: "/api/events/{id}/pricing", handler: "pricing" },
  { method: "POST", path: "/api/events/{id}/pricing", handler: "pricing" },
  { method: "GET", path: "/api/admin/failed-photos", handler: "admin" },
  { method: "POST", path: "/api/admin/failed-photos/rerun", handler: "admin" },
  { method: "GET", path: "/api/analytics", handler: "admin" },
  { method: "GET", path: "/api/events/{id}/processing", handler: "admin" },
  { method: "POST", path: "/api/sales/quote", handler: "sales" },
  { method: "POST", path: "/api/sales/create", handler: "sales" },
  { method: "GET", path: "/api/sales/download/{token}", handler: "sales" },
  { method: "GET", path: "/api/sales/download/{token}/photos/{photoId}", handler: "sales" },
  { method: "POST", path: "/api/payments/wompi/events", handler: "sales" },
  { method: "GET", path: "/api/admin/sales", handler: "sales" },
  { method: "POST", path: "/api/auth/athlete-register", handler: "auth" },
  { method: "GET", path: "/api/events/all-with-photos", handler: "browse" },
  { method: "GET", path: "/api/events/{id}/dorsals/all", handler: "browse" },
  { method: "GET", path: "/api/events/{id}/photos/{dorsal}/all", handler: "browse" },
  { method: "POST", path: "/api/photos/by-ids", handler: "browse" },
  { method: "GET", path: "/api/free-events", handler: "browse" },
  { method: "GET", path: "/api/free-events/{eventId}/dorsals", handler: "browse" },
  { method: "GET", path: "/api/free-events/{eventId}/photos/{dorsal}", handler: "browse" },
  { method: "GET", path: "/api/free-photos/download/{photoId}", handler: "browse" },
  { method: "POST", path: "/api/events/{id}/athlete-access", handler: "events" },
  { method: "GET", path: "/api/athlete/photos/{photoId}/download", handler: "photos" },
  { method: "POST", path: "/api/admin/generate-download-code", handler: "codes" },
  { method: "GET", path: "/api/admin/download-codes", handler: "codes" },
  { method: "POST", path: "/api/download-codes/validate", handler: "codes" },
  { method: "GET", path: "/api/download-codes/download/{code}/{photoId}", handler: "codes" },
] as const satisfies readonly RouteDefinition[];

export type RouteKey = `${(typeof httpRoutes)[number]["method"]} ${(typeof httpRoutes)[number]["path"]}`;
