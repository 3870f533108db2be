import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { type Drive, DriveAuthError, type DriveFile, DriveNotFoundError } from "../../ports/drive";

/**
 * The Drive port held in memory, for use-case tests: one account whose folders the test fills.
 * PKCE is checked as a provider checks it, and every download is recorded, so a test sees which
 * files an import brought.
 */
export interface MemoryDrive extends Drive {
  addFolder(id: string, name: string, files: { id: string; name: string; bytes: Buffer }[]): void;
  downloads: string[];
}

export function createMemoryDrive(): MemoryDrive {
  const folders = new Map<string, { name: string; files: { id: string; name: string; bytes: Buffer }[] }>();
  const challenges = new Map<string, string>();
  const downloads: string[] = [];
  const token = "memoria-acceso";
  const authorized = (accessToken: string) => {
    if (accessToken !== token) throw new DriveAuthError("invalid token");
  };
  const folderOf = (id: string) => {
    const folder = folders.get(id);
    if (!folder) throw new DriveNotFoundError(id);
    return folder;
  };
  return {
    downloads,
    addFolder(id, name, files) {
      folders.set(id, { name, files });
    },
    authorizationUrl({ state, codeChallenge }) {
      // The code the provider will hand back for this authorization is its state's own.
      challenges.set(`codigo-${state}`, codeChallenge);
      return `https://drive.example/auth?state=${state}`;
    },
    async exchangeCode({ code, codeVerifier }) {
      const challenge = challenges.get(code);
      challenges.delete(code);
      if (challenge !== createHash("sha256").update(codeVerifier).digest("base64url")) {
        throw new DriveAuthError("invalid_grant");
      }
      return { accessToken: token, refreshToken: "memoria-renovacion", expiresAt: Date.now() + 3600_000 };
    },
    async refresh() {
      return { accessToken: token, expiresAt: Date.now() + 3600_000 };
    },
    async folders(accessToken) {
      authorized(accessToken);
      return [...folders].map(([id, folder]) => ({ id, name: folder.name }));
    },
    async folder(accessToken, folderId) {
      authorized(accessToken);
      return { id: folderId, name: folderOf(folderId).name };
    },
    async images(accessToken, folderId): Promise<DriveFile[]> {
      authorized(accessToken);
      return folderOf(folderId).files.map(({ id, name, bytes }) => ({
        id,
        name,
        size: String(bytes.length),
        mimeType: "image/jpeg",
      }));
    },
    async download(accessToken, fileId) {
      authorized(accessToken);
      const file = [...folders.values()].flatMap((folder) => folder.files).find((candidate) => candidate.id === fileId);
      if (!file) throw new DriveNotFoundError(fileId);
      downloads.push(fileId);
      return Readable.from([file.bytes]);
    },
  };
}
