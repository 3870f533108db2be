import { createHash, randomBytes } from "node:crypto";
import {
  type DriveAuthAnswer,
  type DriveAuthOutcome,
  type DriveFoldersAnswer,
  type DriveImportAnswer,
  type DrivePhotosAnswer,
  driveMessages,
  drivePreviewCount,
} from "@dorsal/shared/drive";
import { newBatchFields, type ZipBatchRecord } from "../data/zip-batches";
import { type Drive, DriveAuthError, type DriveGrant, DriveNotFoundError } from "../ports/drive";
import type { Deps } from "./deps";
import { conflict, invalid, notFound, unavailable } from "./errors";
import { recordZipUpload } from "./my-uploads";
import { type Sealed, seal, unseal } from "./sealed";
import { driveImportKey } from "./storage-paths";
import type { SessionClaims } from "./tokens";
import { assertCanUpload } from "./uploads";

/**
 * Cloud-drive folder import (spec §2.5): an admin connects a drive through OAuth 2.0 with PKCE in a
 * popup, picks a folder, sees its first photos and imports them into an event. The tokens never
 * leave the server: sealed under a key kept outside the table, per admin, and never logged.
 */

export type DriveDeps = Pick<Deps, "clock" | "ids" | "drive" | "drives" | "logger" | "siteUrl">;

/** How long the popup has to come back (spec §9 polls a clean window up to 5 minutes). */
const authorizationTtlSeconds = 600;
export const driveCallbackPath = "/api/drive/callback";

const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");

async function driveOf(deps: Pick<Deps, "drive">): Promise<{ api: Drive; key: Buffer }> {
  if (!deps.drive) throw unavailable(driveMessages.unavailable);
  try {
    const [api, key] = await Promise.all([deps.drive.api(), deps.drive.sealKey()]);
    return { api, key };
  } catch (error) {
    throw Object.assign(unavailable(driveMessages.unavailable), { cause: error });
  }
}

/** Spec §7 `GET /api/drive/auth`: a PKCE verifier and a state kept here, the provider's URL for the popup. */
export async function driveAuthUrl(
  deps: DriveDeps,
  session: SessionClaims,
  request: { email?: string | undefined; clean?: "true" | "false" | undefined },
): Promise<DriveAuthAnswer> {
  const { api, key } = await driveOf(deps);
  const verifier = randomBytes(32).toString("base64url");
  const state = deps.ids.newToken();
  const redirectUri = `${deps.siteUrl}${driveCallbackPath}`;
  await deps.drives.startAuthorization(sha256(state), {
    userId: session.userId,
    verifier: seal(key, session.userId, verifier),
    redirectUri,
    ttl: Math.floor(deps.clock.now().getTime() / 1000) + authorizationTtlSeconds,
  });
  const authUrl = api.authorizationUrl({
    state,
    codeChallenge: sha256(verifier),
    redirectUri,
    loginHint: request.email || undefined,
    prompt: request.clean === "true",
  });
  return { authUrl };
}

/**
 * The provider's redirect back: the state must be one this server gave out, unused and unexpired;
 * its verifier then redeems the code, and the tokens are sealed onto the admin who asked. Any
 * failure is only `error` to the browser (and a log line without secrets).
 */
export async function driveCallback(
  deps: DriveDeps,
  query: { code?: string | undefined; state?: string | undefined; error?: string | undefined },
): Promise<DriveAuthOutcome> {
  if (query.error || !query.code || !query.state) {
    deps.logger.warn("drive authorization refused", { error: query.error ?? "missing code or state" });
    return "error";
  }
  // The popup is a page, not a fetch: a drive no longer configured is one more way to end in `error`.
  const drive = await driveOf(deps).catch(() => undefined);
  if (!drive) return "error";
  const { api, key } = drive;
  const pending = await deps.drives.takeAuthorization(sha256(query.state));
  const now = deps.clock.now();
  if (!pending || pending.ttl * 1000 < now.getTime()) {
    deps.logger.warn("drive authorization with an unknown or expired state");
    return "error";
  }
  const verifier = unseal(key, pending.userId, pending.verifier);
  if (!verifier) return "error";
  try {
    const grant = await api.exchangeCode({
      code: query.code,
      codeVerifier: verifier,
      redirectUri: pending.redirectUri,
    });
    await saveGrant(deps, key, pending.userId, grant, now);
    return "success";
  } catch (error) {
    if (!(error instanceof DriveAuthError)) throw error;
    deps.logger.warn("drive code refused", { reason: error.message });
    return "error";
  }
}

interface StoredGrant {
  accessToken: string;
  refreshToken?: string;
  expiresAt: number;
}

async function saveGrant(
  deps: Pick<Deps, "drives">,
  key: Buffer,
  userId: string,
  grant: DriveGrant,
  now: Date,
  connectedAt = now.toISOString(),
): Promise<void> {
  const tokens: Sealed = seal(key, userId, JSON.stringify(grant satisfies StoredGrant));
  await deps.drives.saveConnection({ userId, tokens, connectedAt, updatedAt: now.toISOString() });
}

/**
 * A working access token of the account, refreshed when about to expire; undefined when the admin
 * has no drive connected, or the provider no longer honours the grant (it is forgotten then).
 */
export async function accessTokenOf(
  deps: Pick<Deps, "clock" | "drive" | "drives" | "logger">,
  userId: string,
): Promise<{ api: Drive; accessToken: string } | undefined> {
  const { api, key } = await driveOf(deps);
  const connection = await deps.drives.connection(userId);
  const opened = connection && unseal(key, userId, connection.tokens);
  if (!connection || !opened) return undefined;
  const grant = JSON.parse(opened) as StoredGrant;
  const now = deps.clock.now();
  if (grant.expiresAt - 60_000 > now.getTime()) return { api, accessToken: grant.accessToken };
  if (!grant.refreshToken) return undefined;
  try {
    const fresh = await api.refresh(grant.refreshToken);
    await saveGrant(
      deps,
      key,
      userId,
      { ...fresh, refreshToken: fresh.refreshToken ?? grant.refreshToken },
      now,
      connection.connectedAt,
    );
    return { api, accessToken: fresh.accessToken };
  } catch (error) {
    if (!(error instanceof DriveAuthError)) throw error;
    deps.logger.warn("drive grant no longer valid: forgotten", { userId });
    await deps.drives.removeConnection(userId);
    return undefined;
  }
}

async function connected(deps: DriveDeps, session: SessionClaims) {
  const access = await accessTokenOf(deps, session.userId);
  if (!access) throw conflict(driveMessages.notConnected);
  return access;
}

/** Spec §7 `GET /api/drive/folders`. */
export async function driveFolders(deps: DriveDeps, session: SessionClaims): Promise<DriveFoldersAnswer> {
  const access = await accessTokenOf(deps, session.userId);
  if (!access) return { connected: false, folders: [] };
  return { connected: true, folders: await withDriveErrors(() => access.api.folders(access.accessToken)) };
}

/** Spec §7 `GET /api/drive/folders/{id}/photos`: the first 12 of the folder's photos, and how many it holds. */
export async function drivePhotos(
  deps: DriveDeps,
  session: SessionClaims,
  folderId: string,
): Promise<DrivePhotosAnswer> {
  const { api, accessToken } = await connected(deps, session);
  const images = await withDriveErrors(() => api.images(accessToken, folderId));
  return {
    photos: images.slice(0, drivePreviewCount).map(({ id, name, size }) => ({ id, name, size })),
    total: images.length,
  };
}

/** Spec §7 `POST /api/drive/reset`: the admin's tokens are forgotten; connecting again starts over. */
export async function driveReset(deps: DriveDeps, session: SessionClaims): Promise<{ success: true }> {
  await deps.drives.removeConnection(session.userId);
  return { success: true };
}

/**
 * Spec §7 `POST /api/drive/import/{eventId}`: the folder is checked and counted, a batch is made
 * (the very kind a ZIP gets, so the screen follows it the same way), and a small object under
 * uploads/zips/ starts the import in the background, as a ZIP's arrival starts its extraction.
 */
export async function startDriveImport(
  deps: Deps,
  session: SessionClaims,
  eventId: number,
  folderId: string,
): Promise<DriveImportAnswer> {
  await assertCanUpload(deps, session, eventId);
  const { api, accessToken } = await connected(deps, session);
  const [folder, images] = await withDriveErrors(() =>
    Promise.all([api.folder(accessToken, folderId), api.images(accessToken, folderId)]),
  );
  if (images.length === 0) throw invalid(driveMessages.folderEmpty);
  const batchId = deps.ids.newId();
  const now = deps.clock.now().toISOString();
  const batch: ZipBatchRecord = {
    batchId,
    eventId,
    filename: folder.name,
    declaredSize: 0,
    key: driveImportKey(batchId),
    uploadedBy: session.userId,
    driveFolderId: folderId,
    ...newBatchFields,
    totalFiles: images.length,
    createdAt: now,
    updatedAt: now,
  };
  await deps.zipBatches.create(batch);
  await recordZipUpload(deps, batch);
  const start = JSON.stringify({ batchId });
  await deps.objects.put("originals", batch.key, Buffer.from(start), "application/json", Buffer.byteLength(start));
  return { success: true, batchId, totalFiles: images.length };
}

/** The provider's refusals as the API's errors; anything else is a failure of ours (500, logged). */
async function withDriveErrors<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof DriveNotFoundError) throw notFound(driveMessages.folderNotFound);
    if (error instanceof DriveAuthError) throw conflict(driveMessages.authExpired);
    throw error;
  }
}
