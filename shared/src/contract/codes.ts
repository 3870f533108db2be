import { z } from "zod";
import { idParam } from "../api";
import {
  type DownloadCodeResult,
  type DownloadCodeValidation,
  type DownloadZip,
  downloadPhotoId,
  generateDownloadCodeRequest,
  type IssuedDownloadCode,
  validateDownloadCodeRequest,
} from "../sales";
import { endpoint } from "./endpoint";

const codeParams = z.object({ code: z.string().min(1).max(32) });
const downloadParams = codeParams.extend({ photoId: downloadPhotoId });

/** Download codes: the organizer issues them, the athlete opens a bib's photos with one (the `codes` function). */
export const codesApi = {
  generate: endpoint<DownloadCodeResult>()({
    method: "POST",
    path: "/api/admin/generate-download-code",
    access: ["admin"],
    body: generateDownloadCodeRequest,
  }),
  list: endpoint<IssuedDownloadCode[]>()({
    method: "GET",
    path: "/api/admin/download-codes",
    access: ["admin"],
    query: z.object({ eventId: idParam }),
  }),
  validate: endpoint<DownloadCodeValidation>()({
    method: "POST",
    path: "/api/download-codes/validate",
    access: "public",
    body: validateDownloadCodeRequest,
  }),
  /** Answers 302 to a short-lived signed URL of the original. */
  downloadPhoto: endpoint<undefined>()({
    method: "GET",
    path: "/api/download-codes/download/{code}/{photoId}",
    access: "public",
    params: downloadParams,
  }),
  downloadZip: endpoint<DownloadZip>()({
    method: "POST",
    path: "/api/download-codes/download/{code}/zip",
    access: "public",
    params: codeParams,
  }),
};
