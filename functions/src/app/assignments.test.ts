import { messages } from "@dorsal/shared";
import { assignEventRequest, createEventRequest, createUserRequest } from "@dorsal/shared/staff-requests";
import { describe, expect, it } from "vitest";
import { createManualClock, createSequentialIds } from "../adapters/memory/clock";
import { memoryContainer } from "../testing/memory-container";
import { createEvent } from "./events";
import type { SessionClaims } from "./tokens";
import { assertCanUpload } from "./uploads";
import { assignEvent, createUser, deleteUser, listAssignments, unassignEvent, updateUser } from "./users";

const admin: SessionClaims = { userId: "admin-1", email: "admin@dorsal.test", role: "admin" };

/** Prepare: an admin's world of two events and one photographer assigned to the first. */
async function world() {
  const clock = createManualClock(new Date("2026-11-29T08:00:00Z"));
  const { deps } = await memoryContainer({ clock, ids: createSequentialIds() });
  const newEvent = (name: string) => createEvent(deps, createEventRequest.parse({ name, date: "2026-12-06" }));
  const media = await newEvent("Media Maratón de Bogotá");
  const trail = await newEvent("Trail Guatavita");
  const photographer = await createUser(
    deps,
    createUserRequest.parse({
      name: "Ana Fotos",
      email: "ana@fotos.test",
      password: "clave-segura-123",
      assignedEventId: media.id,
    }),
    admin.userId,
  );
  const session: SessionClaims = { userId: photographer.id, email: photographer.email, role: "photographer" };
  return { deps, clock, media, trail, photographer, session };
}

/** Who may upload where (spec §3 photographer_event_assignments), decided by the server from the assignments. */
describe("photographer assignments", () => {
  it("lets a photographer upload to their assigned event only, and an admin anywhere", async () => {
    const { deps, media, trail, session } = await world();

    const own = assertCanUpload(deps, session, media.id);
    const other = assertCanUpload(deps, session, trail.id);
    const byAdmin = assertCanUpload(deps, admin, trail.id);
    const missing = assertCanUpload(deps, admin, 999);

    await expect(own).resolves.toBeUndefined();
    await expect(other).rejects.toMatchObject({ kind: "forbidden", message: messages.forbidden });
    await expect(byAdmin).resolves.toBeUndefined();
    await expect(missing).rejects.toMatchObject({ kind: "not_found", message: messages.eventNotFound });
  });

  it("opens a second event from the next request, once, and closes it again when unassigned", async () => {
    const { deps, clock, trail, photographer, session } = await world();

    clock.advance(60_000);
    const assigned = await assignEvent(deps, admin, photographer.id, assignEventRequest.parse({ eventId: trail.id }));
    const again = assignEvent(deps, admin, photographer.id, assignEventRequest.parse({ eventId: trail.id }));

    expect(assigned).toMatchObject({ eventId: trail.id, eventName: "Trail Guatavita", role: "photographer" });
    await expect(again).rejects.toMatchObject({ kind: "conflict", message: messages.eventAlreadyAssigned });
    await expect(assertCanUpload(deps, session, trail.id)).resolves.toBeUndefined();
    // Newest assignment first.
    expect((await listAssignments(deps, photographer.id)).map((row) => row.eventName)).toEqual([
      "Trail Guatavita",
      "Media Maratón de Bogotá",
    ]);

    await unassignEvent(deps, photographer.id, trail.id);

    await expect(assertCanUpload(deps, session, trail.id)).rejects.toMatchObject({ kind: "forbidden" });
    await expect(unassignEvent(deps, photographer.id, trail.id)).rejects.toMatchObject({
      kind: "not_found",
      message: messages.assignmentNotFound,
    });
  });

  it("refuses assigning events to anyone but a photographer, or an event that does not exist", async () => {
    const { deps, media, photographer } = await world();
    const { id: adminId } = await createUser(
      deps,
      createUserRequest.parse({
        name: "Otra",
        email: "otra@fotos.test",
        password: "clave-segura-123",
        assignedEventId: media.id,
      }),
    );
    await updateUser(deps, admin, adminId, { name: "Otra", email: "otra@fotos.test", role: "user" });

    const toUser = assignEvent(deps, admin, adminId, assignEventRequest.parse({ eventId: media.id }));
    const toNowhere = assignEvent(deps, admin, photographer.id, assignEventRequest.parse({ eventId: 999 }));

    await expect(toUser).rejects.toMatchObject({ kind: "invalid", message: messages.onlyPhotographersAssigned });
    await expect(toNowhere).rejects.toMatchObject({ kind: "invalid", message: messages.eventNotFound });
  });

  it("ends a deleted photographer's access with the account", async () => {
    const { deps, media, photographer, session } = await world();

    await deleteUser(deps, photographer.id);

    await expect(assertCanUpload(deps, session, media.id)).rejects.toMatchObject({ kind: "forbidden" });
    await expect(listAssignments(deps, photographer.id)).rejects.toMatchObject({ kind: "not_found" });
  });
});
