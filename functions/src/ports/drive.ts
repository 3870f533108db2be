import type { Readable } from "node:stream";

/** A grant of access to one account's drive; the refresh token outlives many access tokens. */
export interface DriveGrant {
  accessToken: string;
  /** Absent when the provider keeps the one it gave before (a refresh). */
  refreshToken?: string;
  /** When the access token stops working (ms since the epoch). */
  expiresAt: number;
}

export interface DriveFile {
  id: string;
  name: string;
  /** Bytes, as a decimal string (Drive v3's `size`). */
  size: string;
  mimeType: string;
}

/** The provider refused a token or a code: the account must connect again. */
export class DriveAuthError extends Error {
  override name = "DriveAuthError";
}

/** The folder is not there, or not this account's to read. */
export class DriveNotFoundError extends Error {
  override name = "DriveNotFoundError";
}

/**
 * A cloud drive reached with OAuth 2.0 (authorization code + PKCE): Google Drive v3 on AWS, and
 * locally the runtime's stand-in speaking the same protocol (functions/local/drive-sandbox.ts).
 */
export interface Drive {
  /** Where the browser's popup goes to ask the account's owner for read access. */
  authorizationUrl(request: {
    state: string;
    codeChallenge: string;
    redirectUri: string;
    loginHint?: string | undefined;
    /** Ask again for the account and consent (spec §7's `clean=true`). */
    prompt: boolean;
  }): string;
  exchangeCode(request: { code: string; codeVerifier: string; redirectUri: string }): Promise<DriveGrant>;
  refresh(refreshToken: string): Promise<DriveGrant>;
  /** One folder by id; DriveNotFoundError when it is none of the account's folders. */
  folder(accessToken: string, folderId: string): Promise<{ id: string; name: string }>;
  /** Every folder the account can see (not trashed), by name. */
  folders(accessToken: string): Promise<{ id: string; name: string }[]>;
  /** The image files directly in a folder (not trashed), by name. */
  images(accessToken: string, folderId: string): Promise<DriveFile[]>;
  /** A file's bytes as they arrive. */
  download(accessToken: string, fileId: string): Promise<Readable>;
}
