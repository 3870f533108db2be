import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { z } from "zod";
import { type Drive, DriveAuthError, type DriveFile, type DriveGrant, DriveNotFoundError } from "../../ports/drive";

/** Google's endpoints; the embedded runtime points the same adapter at its stand-in. */
export interface GoogleDriveEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
  /** Drive v3's base, ending before `/files`. */
  apiUrl: string;
}

export const googleEndpoints: GoogleDriveEndpoints = {
  authorizeUrl: "https://accounts.google.com/o/oauth2/v2/auth",
  tokenUrl: "https://oauth2.googleapis.com/token",
  apiUrl: "https://www.googleapis.com/drive/v3",
};

export interface GoogleDriveClient {
  clientId: string;
  clientSecret: string;
}

/** Read-only: the import never changes the account's drive. */
export const driveScope = "https://www.googleapis.com/auth/drive.readonly";
const folderType = "application/vnd.google-apps.folder";
/** Drive v3's largest page. */
const pageSize = 1000;
/** A token that expires this soon is refreshed before use. */
const expirySlackMs = 60_000;

const tokenAnswer = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().positive(),
  refresh_token: z.string().min(1).optional(),
});
const fileList = z.object({
  nextPageToken: z.string().optional(),
  files: z.array(z.object({ id: z.string(), name: z.string(), size: z.string().optional(), mimeType: z.string() })),
});

/** A `q` string literal: Drive escapes `'` and `\` with a backslash. */
const quoted = (value: string) => `'${value.replace(/[\\']/g, (char) => `\\${char}`)}'`;

export const folderQuery = `mimeType = ${quoted(folderType)} and trashed = false`;
export const imagesQuery = (folderId: string) =>
  `${quoted(folderId)} in parents and mimeType contains 'image/' and trashed = false`;

/** Whether an access token must be refreshed before use. */
export const grantExpired = (grant: Pick<DriveGrant, "expiresAt">, now: Date) =>
  grant.expiresAt - expirySlackMs <= now.getTime();

/**
 * Google Drive v3 over REST with OAuth 2.0 authorization code + PKCE (S256): `files.list` with a
 * `q` for folders and for a folder's images, `files.get?alt=media` for the bytes. Plain fetch: the
 * googleapis package would bring hundreds of APIs for three calls.
 */
export function createGoogleDrive(
  client: GoogleDriveClient,
  endpoints: GoogleDriveEndpoints = googleEndpoints,
  clock: () => Date = () => new Date(),
): Drive {
  async function token(form: Record<string, string>): Promise<DriveGrant> {
    const response = await fetch(endpoints.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: client.clientId, client_secret: client.clientSecret, ...form }),
    });
    // 400 invalid_grant / 401 invalid_client: the code, verifier or refresh token is no good.
    if (response.status === 400 || response.status === 401) throw new DriveAuthError(await errorOf(response));
    if (!response.ok) throw new Error(`drive token endpoint answered ${response.status}`);
    const answer = tokenAnswer.parse(await response.json());
    return {
      accessToken: answer.access_token,
      ...(answer.refresh_token ? { refreshToken: answer.refresh_token } : {}),
      expiresAt: clock().getTime() + answer.expires_in * 1000,
    };
  }

  async function get(accessToken: string, path: string, query: Record<string, string>): Promise<Response> {
    const url = new URL(`${endpoints.apiUrl}${path}`);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    const response = await fetch(url, { headers: { authorization: `Bearer ${accessToken}` } });
    if (response.status === 401) throw new DriveAuthError(await errorOf(response));
    if (response.status === 404) throw new DriveNotFoundError(await errorOf(response));
    if (!response.ok) throw new Error(`drive answered ${response.status} for ${path}`);
    return response;
  }

  async function list(accessToken: string, q: string): Promise<DriveFile[]> {
    const files: DriveFile[] = [];
    let pageToken: string | undefined;
    do {
      const response = await get(accessToken, "/files", {
        q,
        fields: "nextPageToken,files(id,name,size,mimeType)",
        orderBy: "name",
        pageSize: String(pageSize),
        spaces: "drive",
        ...(pageToken ? { pageToken } : {}),
      });
      const page = fileList.parse(await response.json());
      files.push(...page.files.map((file) => ({ ...file, size: file.size ?? "0" })));
      pageToken = page.nextPageToken;
    } while (pageToken);
    return files;
  }

  return {
    authorizationUrl({ state, codeChallenge, redirectUri, loginHint, prompt }) {
      const url = new URL(endpoints.authorizeUrl);
      url.search = new URLSearchParams({
        client_id: client.clientId,
        redirect_uri: redirectUri,
        response_type: "code",
        scope: driveScope,
        state,
        code_challenge: codeChallenge,
        code_challenge_method: "S256",
        // A refresh token, so an import outlives the hour an access token lasts; Google gives one
        // only with consent asked.
        access_type: "offline",
        prompt: prompt ? "select_account consent" : "consent",
        ...(loginHint ? { login_hint: loginHint } : {}),
      }).toString();
      return url.toString();
    },
    exchangeCode: ({ code, codeVerifier, redirectUri }) =>
      token({ grant_type: "authorization_code", code, code_verifier: codeVerifier, redirect_uri: redirectUri }),
    refresh: (refreshToken) => token({ grant_type: "refresh_token", refresh_token: refreshToken }),
    async folders(accessToken) {
      return (await list(accessToken, folderQuery)).map(({ id, name }) => ({ id, name }));
    },
    async folder(accessToken, folderId) {
      const response = await get(accessToken, `/files/${encodeURIComponent(folderId)}`, { fields: "id,name,mimeType" });
      const file = fileList.shape.files.element.parse(await response.json());
      if (file.mimeType !== folderType) throw new DriveNotFoundError("not a folder");
      return { id: file.id, name: file.name };
    },
    images: (accessToken, folderId) => list(accessToken, imagesQuery(folderId)),
    async download(accessToken, fileId) {
      const response = await get(accessToken, `/files/${encodeURIComponent(fileId)}`, { alt: "media" });
      if (!response.body) throw new Error("drive sent no body");
      return Readable.fromWeb(response.body as WebReadableStream);
    },
  };
}

/** The provider's error code, never its body whole (it may echo what was sent). */
async function errorOf(response: Response): Promise<string> {
  const body = (await response.json().catch(() => ({}))) as { error?: unknown };
  const code =
    typeof body.error === "string"
      ? body.error
      : typeof body.error === "object" && body.error && "status" in body.error
        ? String(body.error.status)
        : "";
  return `drive answered ${response.status}${code ? ` (${code})` : ""}`;
}

/** The drive secret on AWS: the OAuth client ops register at Google, and the generated sealing key. */
const driveSecret = z.object({
  clientId: z.string().min(1, "clientId vacío: registra el cliente OAuth de Google (docs/uploads.md)"),
  clientSecret: z.string().min(1),
  /** Random text the stack generates; the AES key is its SHA-256. */
  tokenKey: z.string().min(32),
});

export function parseDriveSecret(text: string): GoogleDriveClient & { tokenKey: Buffer } {
  const secret = driveSecret.parse(JSON.parse(text));
  return {
    clientId: secret.clientId,
    clientSecret: secret.clientSecret,
    tokenKey: createHash("sha256").update(secret.tokenKey).digest(),
  };
}

/** The configured endpoints, Google's where none is set. */
export const driveEndpoints = (config: {
  DRIVE_AUTHORIZE_URL?: string | undefined;
  DRIVE_TOKEN_URL?: string | undefined;
  DRIVE_API_URL?: string | undefined;
}): GoogleDriveEndpoints => ({
  authorizeUrl: config.DRIVE_AUTHORIZE_URL ?? googleEndpoints.authorizeUrl,
  tokenUrl: config.DRIVE_TOKEN_URL ?? googleEndpoints.tokenUrl,
  apiUrl: config.DRIVE_API_URL ?? googleEndpoints.apiUrl,
});
