import { z } from "zod";
import { type AnalyticsDto, analyticsQuery } from "../analytics";
import {
  type EventProcessingDto,
  type FailedPhotoPage,
  idParam,
  type RerunFailedResponse,
  rerunFailedRequest,
} from "../api";
import { endpoint } from "./endpoint";

const failedPhotosQuery = z.object({
  eventId: idParam.optional(),
  cursor: z.string().max(2000).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

/** Processing follow-up, the dead-letter list and analytics (the `admin` function). */
export const adminApi = {
  failedPhotos: endpoint<FailedPhotoPage>()({
    method: "GET",
    path: "/api/admin/failed-photos",
    access: ["admin"],
    query: failedPhotosQuery,
  }),
  rerunFailed: endpoint<RerunFailedResponse>()({
    method: "POST",
    path: "/api/admin/failed-photos/rerun",
    access: ["admin"],
    body: rerunFailedRequest,
  }),
  analytics: endpoint<AnalyticsDto>()({
    method: "GET",
    path: "/api/analytics",
    access: ["admin"],
    query: analyticsQuery,
  }),
  processing: endpoint<EventProcessingDto>()({
    method: "GET",
    path: "/api/events/{id}/processing",
    access: ["admin", "photographer"],
    params: z.object({ id: idParam }),
  }),
};
