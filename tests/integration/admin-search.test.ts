import { type BibPhotoPage, type EventDto, messages } from "@dorsal/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiClient } from "../support/api";
import { seedEventWithBibPhotos } from "../support/seed";
import { sharedDorsal } from "../support/server";

/**
 * Spec §2.6's admin search panel: in admin mode the admin sees a bib's photos clean, without
 * buying; the route is public, so only the session can grant that mode, never the query alone.
 */
describe("the admin's search modes", () => {
  const dorsal = sharedDorsal();
  let admin: ReturnType<typeof apiClient>;
  let event: EventDto;
  const bib = "6181";

  beforeAll(async () => {
    const token = await adminToken(dorsal);
    admin = apiClient(dorsal.url, token);
    event = (await seedEventWithBibPhotos(dorsal, token, { name: "Carrera del Modo Administrador", bibs: [bib, bib] }))
      .event;
  }, 180_000);

  const photosOf = (client: ReturnType<typeof apiClient>, mode?: string) =>
    client.get<BibPhotoPage & { error?: string }>(
      `/api/events/${event.id}/photos/${bib}/all${mode ? `?mode=${mode}` : ""}`,
    );

  it("shows an admin in admin mode every photo clean, and in participant mode as the public sees them", async () => {
    const clean = await photosOf(admin, "admin");
    expect(clean.status).toBe(200);
    expect(clean.body.totalFound).toBe(2);
    expect(clean.body.photos.map((photo) => photo.previewKind)).toEqual(["clean", "clean"]);

    const asParticipant = await photosOf(admin, "participant");
    const asPublic = await photosOf(apiClient(dorsal.url));
    expect(asParticipant.body.photos.map((photo) => photo.previewKind)).toEqual(["watermarked", "watermarked"]);
    expect(asPublic.body.photos.map((photo) => photo.previewKind)).toEqual(["watermarked", "watermarked"]);
    // Participant mode is the default, for the admin too.
    expect((await photosOf(admin)).body.photos.map((photo) => photo.previewKind)).toEqual([
      "watermarked",
      "watermarked",
    ]);

    // The clean copy is another file than the watermarked one, and it is served.
    const [cleanPhoto] = clean.body.photos;
    const [publicPhoto] = asPublic.body.photos;
    expect(new URL(cleanPhoto?.webUrl ?? "", dorsal.url).pathname).not.toBe(
      new URL(publicPhoto?.webUrl ?? "", dorsal.url).pathname,
    );
    const served = await fetch(new URL(cleanPhoto?.webUrl ?? "", dorsal.url));
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toMatch(/^image\//);
  });

  it("refuses admin mode to anyone else: no session, an athlete, a photographer", async () => {
    const athlete = await apiClient(dorsal.url).post<{ token: string }>("/api/auth/athlete-register", {
      name: "Marta Ríos",
      email: "marta.rios.modo@example.com",
      password: "secreto1",
    });
    expect(athlete.status).toBe(201);
    const photographer = await admin.post("/api/users", {
      name: "Pedro Fotógrafo",
      email: "pedro.modo@fotos.test",
      password: "secreto1",
      role: "photographer",
      assignedEventId: event.id,
    });
    expect(photographer.status).toBe(201);
    const photographerLogin = await apiClient(dorsal.url).post<{ token: string }>("/api/auth/login", {
      email: "pedro.modo@fotos.test",
      password: "secreto1",
    });

    for (const client of [
      apiClient(dorsal.url),
      apiClient(dorsal.url, athlete.body.token),
      apiClient(dorsal.url, photographerLogin.body.token),
    ]) {
      const refused = await photosOf(client, "admin");
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe(messages.adminSearchOnly);
    }
    expect((await photosOf(admin, "clean")).status).toBe(400);
  });
});
