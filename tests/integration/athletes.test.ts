import type { EventDto, SearchResponse } from "@dorsal/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiClient } from "../support/api";
import { seedEventWithBibPhotos } from "../support/seed";
import { sharedDorsal } from "../support/server";

/**
 * Athlete accounts and the per-event option 'Acceso deportistas': off by default, the athlete sees
 * what the public sees; on, a signed-in athlete gets the clean copies and the originals free.
 */
describe("athletes", () => {
  const dorsal = sharedDorsal();
  let admin: ReturnType<typeof apiClient>;
  let event: EventDto;
  let photoId: string;
  let athlete: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    const token = await adminToken(dorsal);
    admin = apiClient(dorsal.url, token);
    const seeded = await seedEventWithBibPhotos(dorsal, token, { name: "Carrera de Atletas", bibs: ["5173"] });
    event = seeded.event;
    photoId = seeded.photoIdsByBib.get("5173")?.[0] ?? "";
  }, 180_000);
  it("creates an athlete account that is signed in at once, one per email", async () => {
    const account = { name: "Ana Gómez", email: "ana@example.com", password: "secreto1" };
    const created = await apiClient(dorsal.url).post<{ success: boolean; token: string; user: { role: string } }>(
      "/api/auth/athlete-register",
      account,
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ success: true, user: { role: "athlete" } });
    athlete = apiClient(dorsal.url, created.body.token);
    const again = await apiClient(dorsal.url).post<{ error: string }>("/api/auth/athlete-register", account);
    expect(again.status).toBe(409);
    const invalid = await apiClient(dorsal.url).post<{ error: string }>("/api/auth/athlete-register", {
      ...account,
      name: "Ana",
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toBe("Debe incluir nombre y apellido");
  });

  const search = async (client: ReturnType<typeof apiClient>) =>
    (await client.get<SearchResponse>(`/api/photos/search?eventId=${event.id}&dorsalNumber=5173`)).body.photos[0];
  const download = (token: string | undefined) =>
    fetch(new URL(`/api/athlete/photos/${photoId}/download`, dorsal.url), {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });

  it("gives an athlete nothing more than the public while the event keeps the option off", async () => {
    expect((await search(athlete))?.previewKind).toBe("watermarked");
    const login = await apiClient(dorsal.url).post<{ token: string }>("/api/auth/login", {
      email: "ana@example.com",
      password: "secreto1",
    });
    expect((await download(login.body.token)).status).toBe(403);
  });

  it("opens the clean copies and the originals to signed-in athletes once the admin turns it on", async () => {
    expect(
      (await apiClient(dorsal.url).post(`/api/events/${event.id}/athlete-access`, { requiresAthleteLogin: true }))
        .status,
    ).toBe(401);
    const switched = await admin.post<EventDto>(`/api/events/${event.id}/athlete-access`, {
      requiresAthleteLogin: true,
    });
    expect(switched.status).toBe(200);
    expect(switched.body.requiresAthleteLogin).toBe(true);

    expect((await search(athlete))?.previewKind).toBe("clean");
    expect((await search(apiClient(dorsal.url)))?.previewKind).toBe("watermarked");
    const login = await apiClient(dorsal.url).post<{ token: string }>("/api/auth/login", {
      email: "ana@example.com",
      password: "secreto1",
    });
    const answer = await download(login.body.token);
    expect(answer.status).toBe(200);
    const { url } = (await answer.json()) as { url: string };
    expect((await fetch(url)).status).toBe(200);
    expect((await download(undefined)).status).toBe(401);
    expect((await download(await adminToken(dorsal))).status).toBe(403);
  });
});
