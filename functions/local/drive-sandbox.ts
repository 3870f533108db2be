import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, readdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { z } from "zod";
import { makeBibPhoto } from "../src/preflight/probe-photo";

/**
 * A Google Drive on localhost, so the drive import runs offline through the very adapter that
 * talks to Google (functions/src/adapters/drive/google-drive.ts), as the Wompi sandbox does for
 * payments: OAuth 2.0's authorization page ('Autorizar') and token endpoint, with PKCE (S256)
 * checked as Google checks it, and the subset of Drive v3 the adapter uses — `files.list` with a
 * `q` for folders or `'<id>' in parents`, `files.get` for a folder's name and `?alt=media` for
 * bytes. It serves a folder of photos: DRIVE_LOCAL_DIR (each subfolder a drive folder), else a few
 * generated race photos under DATA_DIR/drive-sandbox.
 */
export const driveSandboxPrefix = "/sandbox/drive";
const folderType = "application/vnd.google-apps.folder";
const accessTtlSeconds = 3600;
const codeTtlMs = 60_000;

const imageTypes: Record<string, string> = {
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".tif": "image/tiff",
  ".tiff": "image/tiff",
  ".bmp": "image/bmp",
  ".webp": "image/webp",
  ".heic": "image/heic",
  ".heif": "image/heif",
};

export interface DriveSandbox {
  /** The settings that point the runtime's Google Drive adapter at this stand-in. */
  environment: Record<string, string>;
  handle(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void>;
}

export interface DriveSandboxOptions {
  dataDir: string;
  /** Where its folders are; unset, generated photos under dataDir. */
  folderDir?: string | undefined;
  /** The origin browsers use: the authorization page lives there. */
  publicUrl: string;
  /** The runtime's own loopback origin: the adapter's server-side calls never leave the machine. */
  localUrl: string;
}

const clientSchema = z.object({ clientId: z.string(), clientSecret: z.string() });
type Client = z.infer<typeof clientSchema>;

async function loadClient(dataDir: string): Promise<Client> {
  const file = path.join(dataDir, "keys", "drive-sandbox.json");
  try {
    return clientSchema.parse(JSON.parse(await readFile(file, "utf8")));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const client = {
    clientId: `local-${randomBytes(8).toString("hex")}.apps.dorsal.local`,
    clientSecret: randomBytes(24).toString("base64url"),
  };
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(client), { mode: 0o600 });
  return client;
}

/** The photos served when no folder is configured: one folder to import, one long enough to show '+N más'. */
async function generatedFolder(dataDir: string): Promise<string> {
  const root = path.join(dataDir, "drive-sandbox");
  if (await stat(root).catch(() => undefined)) return root;
  const building = `${root}.tmp`;
  const folders: [string, string[], { width: number; height: number }][] = [
    ["Carrera 10K - Llegada", ["4821", "517", "93"], { width: 1600, height: 1200 }],
    ["Carrera 10K - Salida", Array.from({ length: 15 }, (_, i) => String(100 + i)), { width: 480, height: 360 }],
  ];
  for (const [folder, bibs, size] of folders) {
    await mkdir(path.join(building, folder), { recursive: true });
    for (const bib of bibs)
      await writeFile(path.join(building, folder, `dorsal-${bib}.jpg`), await makeBibPhoto(bib, size));
  }
  await rename(building, root);
  return root;
}

const encodeId = (relative: string) => Buffer.from(relative).toString("base64url");
const decodeId = (id: string) => Buffer.from(id, "base64url").toString("utf8");
const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) break;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function send(response: ServerResponse, status: number, body: string, type: string) {
  response.writeHead(status, { "content-type": `${type}; charset=utf-8`, "cache-control": "no-store" });
  response.end(body);
}
const sendJson = (response: ServerResponse, status: number, body: unknown) =>
  send(response, status, JSON.stringify(body), "application/json");
/** Drive v3's error shape. */
const driveError = (response: ServerResponse, code: number, status: string) =>
  sendJson(response, code, { error: { code, status, message: status } });

function authorizePage(params: URLSearchParams): string {
  const hidden = [...params]
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("\n");
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Autorizar acceso · Google Drive de pruebas</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 30rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; }
form { display: flex; gap: .75rem; flex-wrap: wrap; }
button { font-size: 1rem; padding: .6rem 1.2rem; border-radius: .4rem; border: 1px solid #333; cursor: pointer; }
button[value="allow"] { background: #1a73e8; color: #fff; border-color: #1a73e8; }
.note { color: #555; font-size: .9rem; }
</style>
</head>
<body>
<main>
<h1>Google Drive de pruebas</h1>
<p>Dorsal quiere <strong>ver los archivos</strong> de tu Drive para importar fotos. No podrá cambiarlos.</p>
<form method="post">
${hidden}
<button type="submit" name="decision" value="allow">Autorizar</button>
<button type="submit" name="decision" value="deny">Cancelar</button>
</form>
<p class="note">Este Drive lo sirve el propio Dorsal en tu equipo, para probar la importación sin conexión.</p>
</main>
</body>
</html>`;
}

export async function createDriveSandbox(options: DriveSandboxOptions): Promise<DriveSandbox> {
  const client = await loadClient(options.dataDir);
  const root = () =>
    options.folderDir ? Promise.resolve(path.resolve(options.folderDir)) : generatedFolder(options.dataDir);
  let folderRoot: Promise<string> | undefined;
  const folders = () => {
    folderRoot ??= root();
    return folderRoot;
  };
  /** Codes live minutes at most: a restart forgetting them only fails an authorization under way. */
  const codes = new Map<string, { challenge: string; redirectUri: string; expiresAt: number }>();

  // Tokens carry their own expiry, signed with the client secret: they survive a restart, as Google's do.
  const sign = (payload: string) => createHmac("sha256", client.clientSecret).update(payload).digest("base64url");
  const token = (kind: "a" | "r", expiresAt: number) => {
    const payload = `${kind}.${expiresAt}.${randomBytes(9).toString("base64url")}`;
    return `${payload}.${sign(payload)}`;
  };
  const valid = (value: string | undefined, kind: "a" | "r") => {
    const parts = value?.split(".") ?? [];
    if (parts.length !== 4 || parts[0] !== kind) return false;
    const expected = Buffer.from(sign(parts.slice(0, 3).join(".")));
    const given = Buffer.from(parts[3] ?? "");
    return given.length === expected.length && timingSafeEqual(given, expected) && Number(parts[1]) > Date.now();
  };
  const grant = (withRefresh: boolean) => ({
    access_token: token("a", Date.now() + accessTtlSeconds * 1000),
    expires_in: accessTtlSeconds,
    token_type: "Bearer",
    scope: "https://www.googleapis.com/auth/drive.readonly",
    ...(withRefresh ? { refresh_token: token("r", Number.MAX_SAFE_INTEGER) } : {}),
  });

  async function authorize(request: IncomingMessage, response: ServerResponse, url: URL) {
    if (request.method === "GET") {
      const params = url.searchParams;
      const problem =
        params.get("client_id") !== client.clientId
          ? "El cliente OAuth no es el de este Dorsal"
          : params.get("response_type") !== "code"
            ? "Solo se admite response_type=code"
            : params.get("code_challenge_method") !== "S256" || !params.get("code_challenge")
              ? "Falta el desafío PKCE (S256)"
              : !params.get("redirect_uri")
                ? "Falta redirect_uri"
                : null;
      if (problem) return send(response, 400, `<p>${escapeHtml(problem)}</p>`, "text/html");
      return send(response, 200, authorizePage(params), "text/html");
    }
    const form = await readForm(request);
    const redirectUri = form.get("redirect_uri") ?? "";
    if (form.get("client_id") !== client.clientId || !URL.canParse(redirectUri)) {
      return send(response, 400, "<p>Solicitud inválida</p>", "text/html");
    }
    const back = new URL(redirectUri);
    const state = form.get("state");
    if (state) back.searchParams.set("state", state);
    if (form.get("decision") === "allow") {
      const code = randomBytes(18).toString("base64url");
      codes.set(code, { challenge: form.get("code_challenge") ?? "", redirectUri, expiresAt: Date.now() + codeTtlMs });
      back.searchParams.set("code", code);
    } else {
      back.searchParams.set("error", "access_denied");
    }
    response.writeHead(302, { location: back.toString(), "cache-control": "no-store" });
    response.end();
  }

  async function tokenEndpoint(request: IncomingMessage, response: ServerResponse) {
    const form = await readForm(request);
    if (form.get("client_id") !== client.clientId || form.get("client_secret") !== client.clientSecret) {
      return sendJson(response, 401, { error: "invalid_client" });
    }
    if (form.get("grant_type") === "refresh_token") {
      if (!valid(form.get("refresh_token") ?? undefined, "r"))
        return sendJson(response, 400, { error: "invalid_grant" });
      return sendJson(response, 200, grant(false));
    }
    if (form.get("grant_type") !== "authorization_code")
      return sendJson(response, 400, { error: "unsupported_grant_type" });
    const code = form.get("code") ?? "";
    const pending = codes.get(code);
    codes.delete(code);
    const verifier = form.get("code_verifier") ?? "";
    if (
      !pending ||
      pending.expiresAt < Date.now() ||
      pending.redirectUri !== form.get("redirect_uri") ||
      sha256(verifier) !== pending.challenge
    ) {
      return sendJson(response, 400, { error: "invalid_grant" });
    }
    return sendJson(response, 200, grant(true));
  }

  async function listFiles(response: ServerResponse, url: URL) {
    const q = url.searchParams.get("q") ?? "";
    const base = await folders();
    let files: { id: string; name: string; mimeType: string; size?: string }[];
    if (q.includes(`mimeType = '${folderType}'`)) {
      const entries = await readdir(base, { withFileTypes: true });
      files = entries
        .filter((entry) => entry.isDirectory())
        .map((entry) => ({ id: encodeId(entry.name), name: entry.name, mimeType: folderType }));
    } else {
      const parent = /'([^'\\]+)' in parents/.exec(q)?.[1];
      const folder = parent ? decodeId(parent) : "";
      if (!parent || folder.includes("/") || folder.startsWith(".")) return driveError(response, 404, "NOT_FOUND");
      const entries = await readdir(path.join(base, folder), { withFileTypes: true }).catch(() => undefined);
      if (!entries) return driveError(response, 404, "NOT_FOUND");
      const images = entries.filter((entry) => entry.isFile() && imageTypes[path.extname(entry.name).toLowerCase()]);
      files = await Promise.all(
        images.map(async (entry) => ({
          id: encodeId(`${folder}/${entry.name}`),
          name: entry.name,
          mimeType: imageTypes[path.extname(entry.name).toLowerCase()] as string,
          size: String((await stat(path.join(base, folder, entry.name))).size),
        })),
      );
    }
    files.sort((a, b) => a.name.localeCompare(b.name));
    const pageSize = Math.min(1000, Number(url.searchParams.get("pageSize") ?? 100) || 100);
    const offset = Number(url.searchParams.get("pageToken") ?? 0) || 0;
    const page = files.slice(offset, offset + pageSize);
    sendJson(response, 200, {
      files: page,
      ...(offset + pageSize < files.length ? { nextPageToken: String(offset + pageSize) } : {}),
    });
  }

  async function getFile(response: ServerResponse, url: URL, id: string) {
    const relative = decodeId(id);
    const parts = relative.split("/");
    if (parts.length > 2 || parts.some((part) => !part || part.startsWith("."))) {
      return driveError(response, 404, "NOT_FOUND");
    }
    const file = path.join(await folders(), ...parts);
    const info = await stat(file).catch(() => undefined);
    if (!info) return driveError(response, 404, "NOT_FOUND");
    const name = parts[parts.length - 1] as string;
    if (url.searchParams.get("alt") === "media") {
      if (!info.isFile()) return driveError(response, 404, "NOT_FOUND");
      response.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(info.size) });
      await pipeline(createReadStream(file), response);
      return;
    }
    const mimeType = info.isDirectory()
      ? folderType
      : (imageTypes[path.extname(name).toLowerCase()] ?? "application/octet-stream");
    sendJson(response, 200, { id, name, mimeType, ...(info.isFile() ? { size: String(info.size) } : {}) });
  }

  return {
    environment: {
      GOOGLE_DRIVE_CLIENT_ID: client.clientId,
      GOOGLE_DRIVE_CLIENT_SECRET: client.clientSecret,
      DRIVE_AUTHORIZE_URL: `${options.publicUrl}${driveSandboxPrefix}/o/oauth2/auth`,
      DRIVE_TOKEN_URL: `${options.localUrl}${driveSandboxPrefix}/token`,
      DRIVE_API_URL: `${options.localUrl}${driveSandboxPrefix}/drive/v3`,
    },
    async handle(request, response, url) {
      const route = url.pathname.slice(driveSandboxPrefix.length);
      if (route === "/o/oauth2/auth") return authorize(request, response, url);
      if (route === "/token" && request.method === "POST") return tokenEndpoint(request, response);
      if (route.startsWith("/drive/v3/files") && request.method === "GET") {
        const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
        if (!valid(bearer, "a")) return driveError(response, 401, "UNAUTHENTICATED");
        if (route === "/drive/v3/files") return listFiles(response, url);
        const id = /^\/drive\/v3\/files\/([A-Za-z0-9_-]+)$/.exec(route)?.[1];
        if (id) return getFile(response, url, id);
      }
      driveError(response, 404, "NOT_FOUND");
    },
  };
}
