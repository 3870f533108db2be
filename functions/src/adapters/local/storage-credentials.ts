import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

export interface LocalStorageCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * The key pair only the local runtime knows, generated into the data dir on first start: the local
 * object store answers requests signed with it and nothing else, as S3 answers only its account's
 * keys. A fixed, well-known key (s3rver's `S3RVER`) would let anyone on the LAN sign requests.
 */
export async function localStorageCredentials(dataDir: string): Promise<LocalStorageCredentials> {
  const file = path.join(dataDir, "keys", "storage-credentials.json");
  const existing = await readCredentials(file);
  if (existing) return existing;
  const created: LocalStorageCredentials = {
    accessKeyId: `DORSAL${randomBytes(7).toString("hex").toUpperCase()}`,
    secretAccessKey: randomBytes(30).toString("base64url"),
  };
  await mkdir(path.dirname(file), { recursive: true });
  try {
    await writeFile(file, JSON.stringify(created), { mode: 0o600, flag: "wx" });
    return created;
  } catch (error) {
    // Another part of the process (the store or the composition) wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const written = await readCredentials(file);
    if (!written) throw new Error(`${file} exists but cannot be read`);
    return written;
  }
}

async function readCredentials(file: string): Promise<LocalStorageCredentials | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, "utf8")) as Partial<LocalStorageCredentials>;
    if (typeof parsed.accessKeyId === "string" && typeof parsed.secretAccessKey === "string") {
      return { accessKeyId: parsed.accessKeyId, secretAccessKey: parsed.secretAccessKey };
    }
    throw new Error(`${file} does not hold storage credentials`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
