import type { EventDeletionDto, UploadTarget, UserListItem, UserListPage } from "@dorsal/shared";

/** A minimal API client for tests, speaking to the running runtime exactly as the browser does. */
export function apiClient(baseUrl: string, token?: string) {
  const call = async <T = unknown>(method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    let payload: RequestInit["body"];
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body);
    }
    const response = await fetch(new URL(path, baseUrl), { method, headers, ...(payload ? { body: payload } : {}) });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  };
  return {
    /** Any method by name, for tables of endpoints. */
    request: call,
    get: <T = unknown>(path: string) => call<T>("GET", path),
    post: <T = unknown>(path: string, body?: unknown) => call<T>("POST", path, body),
    put: <T = unknown>(path: string, body?: unknown) => call<T>("PUT", path, body),
    delete: <T = unknown>(path: string) => call<T>("DELETE", path),
  };
}

export async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** Every account of the users list (GET /api/users), through all its pages. */
export async function allUsers(client: ReturnType<typeof apiClient>): Promise<UserListItem[]> {
  const users: UserListItem[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const page = await client.get<UserListPage>(`/api/users?limit=100${query}`);
    if (page.status !== 200) throw new Error(`GET /api/users answered ${page.status}`);
    users.push(...page.body.users);
    cursor = page.body.cursor;
  } while (cursor);
  return users;
}

/** An event's deletion, once its background workflow has finished, as the events screen reads it. */
export function deletionFinished(
  client: ReturnType<typeof apiClient>,
  eventId: number,
  timeoutMs = 60_000,
): Promise<EventDeletionDto> {
  return waitFor(
    async () => {
      const deletions = await client.get<EventDeletionDto[]>("/api/event-deletions");
      if (deletions.status !== 200) throw new Error(`GET /api/event-deletions answered ${deletions.status}`);
      return deletions.body.find((deletion) => deletion.eventId === eventId && deletion.status === "done");
    },
    timeoutMs,
    `the deletion of event ${eventId} to finish`,
  );
}

/** Signs the runtime's admin in over the API, as the browser does, and returns the session token. */
export async function adminToken(dorsal: { url: string; adminEmail: string; adminPassword: string }): Promise<string> {
  const login = await apiClient(dorsal.url).post<{ token?: string }>("/api/auth/login", {
    email: dorsal.adminEmail,
    password: dorsal.adminPassword,
  });
  if (login.status !== 200 || !login.body.token) throw new Error(`Admin login failed with ${login.status}`);
  return login.body.token;
}

/** A new photographer assigned to one event, made by `admin` and signed in: a client with their session. */
export async function photographerClient(
  baseUrl: string,
  admin: ReturnType<typeof apiClient>,
  account: { name: string; email: string; password: string; eventId: number },
): Promise<ReturnType<typeof apiClient>> {
  const { name, email, password, eventId } = account;
  const created = await admin.post("/api/users", {
    name,
    email,
    password,
    role: "photographer",
    assignedEventId: eventId,
  });
  if (created.status !== 201) throw new Error(`Creating ${email} answered ${created.status}`);
  const login = await apiClient(baseUrl).post<{ token: string }>("/api/auth/login", { email, password });
  if (login.status !== 200) throw new Error(`${email} could not sign in: ${login.status}`);
  return apiClient(baseUrl, login.body.token);
}

/**
 * One file of an upload, as the upload screen sends it: registered under the upload, then PUT
 * straight to storage at the URL the API signed. Returns the storage's answer status.
 */
export async function sendUploadFile(
  client: ReturnType<typeof apiClient>,
  file: { eventId: number; uploadId: string; filename: string; fileKey: string; bytes: Buffer },
): Promise<number> {
  const target = await client.post<UploadTarget>("/api/photos/uploads", {
    kind: "photo",
    eventId: file.eventId,
    filename: file.filename,
    contentType: "image/jpeg",
    size: file.bytes.length,
    multipart: false,
    upload: { uploadId: file.uploadId, fileKey: file.fileKey },
  });
  const put = await fetch(target.body.url, { method: "PUT", headers: target.body.headers, body: file.bytes });
  return put.status;
}
