import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DriveAuthError, DriveNotFoundError } from "../../ports/drive";
import { createGoogleDrive, driveScope, imagesQuery } from "./google-drive";

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  form: URLSearchParams;
}

/**
 * The adapter's requests, shaped as Google documents them, against a server on loopback that
 * answers with the documented bodies of OAuth 2.0's token endpoint and Drive v3's files.list and
 * files.get (developers.google.com/drive/api/reference/rest/v3/files).
 */
describe("Google Drive adapter", () => {
  const seen: Seen[] = [];
  let answers: ((request: Seen) => { status: number; body: unknown } | undefined)[] = [];
  let base = "";
  const server = createServer(async (request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? "/", "http://localhost");
    const entry: Seen = {
      method: request.method ?? "",
      path: url.pathname,
      query: url.searchParams,
      authorization: request.headers.authorization,
      form: new URLSearchParams(Buffer.concat(chunks).toString()),
    };
    seen.push(entry);
    const answer = answers.map((answerFor) => answerFor(entry)).find(Boolean) ?? { status: 500, body: {} };
    if (Buffer.isBuffer(answer.body)) {
      response.writeHead(answer.status, { "content-type": "image/jpeg" });
      response.end(answer.body);
      return;
    }
    response.writeHead(answer.status, { "content-type": "application/json" });
    response.end(JSON.stringify(answer.body));
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const now = new Date("2026-12-06T12:00:00Z");
  const drive = () =>
    createGoogleDrive(
      { clientId: "cliente.apps.googleusercontent.com", clientSecret: "secreto" },
      { authorizeUrl: `${base}/o/oauth2/v2/auth`, tokenUrl: `${base}/token`, apiUrl: `${base}/drive/v3` },
      () => now,
    );
  const fresh = () => {
    seen.length = 0;
    answers = [];
  };

  it("sends the popup to Google's authorization with PKCE S256, offline access and the read-only scope", () => {
    const url = new URL(
      drive().authorizationUrl({
        state: "estado",
        codeChallenge: "desafio",
        redirectUri: "https://fotos.example.co/api/drive/callback",
        loginHint: "ana@example.co",
        prompt: true,
      }),
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: "cliente.apps.googleusercontent.com",
      redirect_uri: "https://fotos.example.co/api/drive/callback",
      response_type: "code",
      scope: driveScope,
      state: "estado",
      code_challenge: "desafio",
      code_challenge_method: "S256",
      access_type: "offline",
      prompt: "select_account consent",
      login_hint: "ana@example.co",
    });
  });

  it("redeems a code with its verifier as a form post, and reads the documented token answer", async () => {
    fresh();
    answers.push(() => ({
      status: 200,
      body: {
        access_token: "ya29.acceso",
        expires_in: 3599,
        refresh_token: "1//renovacion",
        scope: driveScope,
        token_type: "Bearer",
      },
    }));
    const grant = await drive().exchangeCode({
      code: "4/codigo",
      codeVerifier: "verificador",
      redirectUri: "https://x/cb",
    });
    expect(grant).toEqual({
      accessToken: "ya29.acceso",
      refreshToken: "1//renovacion",
      expiresAt: now.getTime() + 3599_000,
    });
    expect(seen[0]?.method).toBe("POST");
    expect(Object.fromEntries(seen[0]?.form ?? [])).toEqual({
      client_id: "cliente.apps.googleusercontent.com",
      client_secret: "secreto",
      grant_type: "authorization_code",
      code: "4/codigo",
      code_verifier: "verificador",
      redirect_uri: "https://x/cb",
    });
  });

  it("reports Google's invalid_grant (a wrong verifier, a used code, a revoked refresh token) as an auth error", async () => {
    fresh();
    answers.push(() => ({ status: 400, body: { error: "invalid_grant", error_description: "Bad Request" } }));
    await expect(drive().refresh("1//revocado")).rejects.toBeInstanceOf(DriveAuthError);
    expect(seen[0]?.form.get("grant_type")).toBe("refresh_token");
    expect(seen[0]?.form.get("refresh_token")).toBe("1//revocado");
  });

  it("lists folders with a q for the folder type, following nextPageToken", async () => {
    fresh();
    answers.push((request) =>
      request.query.get("pageToken")
        ? {
            status: 200,
            body: {
              kind: "drive#fileList",
              files: [{ id: "f2", name: "Salida", mimeType: "application/vnd.google-apps.folder" }],
            },
          }
        : {
            status: 200,
            body: {
              kind: "drive#fileList",
              nextPageToken: "siguiente",
              incompleteSearch: false,
              files: [
                { kind: "drive#file", id: "f1", name: "Llegada", mimeType: "application/vnd.google-apps.folder" },
              ],
            },
          },
    );
    expect(await drive().folders("ya29.acceso")).toEqual([
      { id: "f1", name: "Llegada" },
      { id: "f2", name: "Salida" },
    ]);
    expect(seen.map((request) => request.query.get("pageToken"))).toEqual([null, "siguiente"]);
    expect(seen[0]?.path).toBe("/drive/v3/files");
    expect(seen[0]?.authorization).toBe("Bearer ya29.acceso");
    expect(seen[0]?.query.get("q")).toBe("mimeType = 'application/vnd.google-apps.folder' and trashed = false");
    expect(seen[0]?.query.get("fields")).toBe("nextPageToken,files(id,name,size,mimeType)");
    expect(seen[0]?.query.get("pageSize")).toBe("1000");
  });

  it("lists a folder's images by parent, its id quoted, sizes as Drive's strings", async () => {
    fresh();
    answers.push(() => ({
      status: 200,
      body: { files: [{ id: "a1", name: "meta.jpg", mimeType: "image/jpeg", size: "2048576" }] },
    }));
    expect(await drive().images("ya29.acceso", "carpeta1")).toEqual([
      { id: "a1", name: "meta.jpg", mimeType: "image/jpeg", size: "2048576" },
    ]);
    expect(seen[0]?.query.get("q")).toBe("'carpeta1' in parents and mimeType contains 'image/' and trashed = false");
    expect(imagesQuery("o'brien\\")).toBe(
      "'o\\'brien\\\\' in parents and mimeType contains 'image/' and trashed = false",
    );
  });

  it("reads a folder's name with files.get, refuses a file that is no folder, and maps 401 and 404", async () => {
    fresh();
    answers.push((request) =>
      request.path.endsWith("/f1")
        ? { status: 200, body: { id: "f1", name: "Llegada", mimeType: "application/vnd.google-apps.folder" } }
        : request.path.endsWith("/foto")
          ? { status: 200, body: { id: "foto", name: "meta.jpg", mimeType: "image/jpeg" } }
          : request.path.endsWith("/vencido")
            ? { status: 401, body: { error: { code: 401, message: "Invalid Credentials", status: "UNAUTHENTICATED" } } }
            : { status: 404, body: { error: { code: 404, message: "File not found: nada.", status: "NOT_FOUND" } } },
    );
    expect(await drive().folder("ya29.acceso", "f1")).toEqual({ id: "f1", name: "Llegada" });
    expect(seen[0]?.query.get("fields")).toBe("id,name,mimeType");
    await expect(drive().folder("ya29.acceso", "foto")).rejects.toBeInstanceOf(DriveNotFoundError);
    await expect(drive().folder("ya29.acceso", "nada")).rejects.toBeInstanceOf(DriveNotFoundError);
    await expect(drive().folder("ya29.acceso", "vencido")).rejects.toBeInstanceOf(DriveAuthError);
  });

  it("downloads a file's bytes with alt=media as a stream", async () => {
    fresh();
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    answers.push(() => ({ status: 200, body: bytes }));
    const stream = await drive().download("ya29.acceso", "a1");
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(bytes);
    expect(seen[0]?.path).toBe("/drive/v3/files/a1");
    expect(seen[0]?.query.get("alt")).toBe("media");
  });
});
