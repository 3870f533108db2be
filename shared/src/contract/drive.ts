import { z } from "zod";
import {
  type DriveAuthAnswer,
  type DriveFoldersAnswer,
  type DriveImportAnswer,
  type DrivePhotosAnswer,
  driveAuthQuery,
  driveCallbackQuery,
  driveFolderId,
  driveImportParams,
  driveImportRequest,
} from "../drive";
import { endpoint } from "./endpoint";

/**
 * Cloud-drive folder import (spec §2.5, §7; the `drive` function). Spec §6 names the drive among
 * the admin's powers only, so every route but the provider's callback is the admin's.
 */
export const driveApi = {
  folders: endpoint<DriveFoldersAnswer>()({ method: "GET", path: "/api/drive/folders", access: ["admin"] }),
  photos: endpoint<DrivePhotosAnswer>()({
    method: "GET",
    path: "/api/drive/folders/{id}/photos",
    access: ["admin"],
    params: z.object({ id: driveFolderId }),
  }),
  auth: endpoint<DriveAuthAnswer>()({
    method: "GET",
    path: "/api/drive/auth",
    access: ["admin"],
    query: driveAuthQuery,
  }),
  /**
   * Where the provider sends the popup back: no session rides on that navigation, so the state
   * (one use, minutes long, kept on the server with its PKCE verifier) names the admin. Answers 302
   * to the upload screen with `drive_auth=success|error`.
   */
  callback: endpoint<undefined>()({
    method: "GET",
    path: "/api/drive/callback",
    access: "public",
    query: driveCallbackQuery,
  }),
  /** Forgets the admin's drive connection (its tokens). */
  reset: endpoint<{ success: true }>()({ method: "POST", path: "/api/drive/reset", access: ["admin"] }),
  import: endpoint<DriveImportAnswer>()({
    method: "POST",
    path: "/api/drive/import/{eventId}",
    access: ["admin"],
    params: driveImportParams,
    body: driveImportRequest,
  }),
};
