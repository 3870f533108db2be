import type { EventDto, PublicUser, Role } from "@dorsal/shared";
import type { EndpointSpec } from "@dorsal/shared/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { httpHandlers, httpRoutes } from "../../functions/src/http/routes";
import { adminToken, apiClient } from "../support/api";
import { sharedDorsal } from "../support/server";

type Client = ReturnType<typeof apiClient>;

/**
 * Every route each Lambda handler file serves, with the roles it admits, read from the handlers
 * themselves (the endpoints each one bound), with the function it belongs to.
 */
async function declaredRoutes() {
  const declared: { key: string; handler: string; access: "public" | readonly Role[] }[] = [];
  for (const name of httpHandlers) {
    const module: { handler: { routes: { endpoints: Record<string, EndpointSpec> } } } = await import(
      `../../functions/src/handlers/http/${name}.ts`
    );
    for (const endpoint of Object.values(module.handler.routes.endpoints)) {
      declared.push({ key: `${endpoint.method} ${endpoint.path}`, handler: name, access: endpoint.access });
    }
  }
  return declared;
}

/**
 * Spec §6 enforced by the server, for every protected route there is: no token → 401, a signed-in
 * role the route does not admit → 403 with the Spanish message, before any input is even read.
 */
describe("access matrix", () => {
  const forbidden = { success: false, error: "No tienes permiso para realizar esta acción" };
  const dorsal = sharedDorsal();
  let event: EventDto;
  let photographer: Client;
  let plainUser: Client;

  async function signedIn(email: string, role: "photographer" | "user"): Promise<Client> {
    const admin = apiClient(dorsal.url, await adminToken(dorsal));
    const password = "secreto1";
    const created = await admin.post<{ user: PublicUser }>("/api/users", {
      name: `Cuenta ${role}`,
      email,
      password,
      assignedEventId: event.id,
    });
    expect(created.status).toBe(201);
    if (role === "user") {
      const edited = await admin.put(`/api/users/${created.body.user.id}`, { name: "Atleta", email, role: "user" });
      expect(edited.status).toBe(200);
    }
    const login = await apiClient(dorsal.url).post<{ token: string }>("/api/auth/login", { email, password });
    expect(login.status).toBe(200);
    return apiClient(dorsal.url, login.body.token);
  }

  beforeAll(async () => {
    const admin = apiClient(dorsal.url, await adminToken(dorsal));
    event = (await admin.post<EventDto>("/api/events", { name: "Carrera Matriz", date: "2026-12-06" })).body;
    photographer = await signedIn("matriz.foto@dorsal.test", "photographer");
    plainUser = await signedIn("matriz.usuario@dorsal.test", "user");
  });
  it("serves every route of the route table from exactly the function API Gateway sends it to", async () => {
    const declared = (await declaredRoutes()).map(({ key, handler }) => `${key} → ${handler}`).sort();
    expect(declared).toEqual(httpRoutes.map((route) => `${route.method} ${route.path} → ${route.handler}`).sort());
  });

  it("refuses every protected route without a token (401) and to a role it does not admit (403)", async () => {
    const anonymous = apiClient(dorsal.url);
    const protectedRoutes = (await declaredRoutes()).filter((route) => route.access !== "public");
    expect(protectedRoutes.length).toBeGreaterThan(20);
    for (const { key, access } of protectedRoutes) {
      const [method = "", template = ""] = key.split(" ");
      const path = template.replace(/\{(\w+)\}/g, (_, name: string) =>
        name === "id" || name === "eventId" ? String(event.id) : "abc123def456",
      );
      // A JSON body where the method takes one: access is checked before the body is read.
      const call = (client: Client) => client.request(method, path, method === "GET" ? undefined : {});
      expect({ key, status: (await call(anonymous)).status }).toEqual({ key, status: 401 });
      if (access === "public") continue;
      const outsiders = [
        { role: "photographer", client: photographer },
        { role: "user", client: plainUser },
      ].filter(({ role }) => !access.some((admitted) => admitted === role));
      for (const { role, client } of outsiders) {
        expect({ key, role, ...(await call(client)) }).toEqual({ key, role, status: 403, body: forbidden });
      }
    }
  });
});
