import { z } from "zod";
import {
  type ApprovedApplicationResponse,
  applicationListQuery,
  approveApplicationRequest,
  type PhotographerApplicationCreated,
  type PhotographerApplicationPage,
  photographerApplicationRequest,
  type RejectedApplicationResponse,
  rejectApplicationRequest,
} from "../applications";
import { endpoint } from "./endpoint";

/** Application ids as the ids port makes them. */
const applicationParams = z.object({ id: z.string().regex(/^[a-z0-9]{10,40}$/) });

/** 'Soy fotógrafo' applications and their review by an admin (the `applications` function). */
export const applicationsApi = {
  submit: endpoint<PhotographerApplicationCreated>()({
    method: "POST",
    path: "/api/photographer-applications",
    access: "public",
    body: photographerApplicationRequest,
  }),
  list: endpoint<PhotographerApplicationPage>()({
    method: "GET",
    path: "/api/admin/photographer-applications",
    access: ["admin"],
    query: applicationListQuery,
  }),
  approve: endpoint<ApprovedApplicationResponse>()({
    method: "POST",
    path: "/api/admin/photographer-applications/{id}/approve",
    access: ["admin"],
    params: applicationParams,
    body: approveApplicationRequest,
  }),
  reject: endpoint<RejectedApplicationResponse>()({
    method: "POST",
    path: "/api/admin/photographer-applications/{id}/reject",
    access: ["admin"],
    params: applicationParams,
    body: rejectApplicationRequest,
  }),
};
