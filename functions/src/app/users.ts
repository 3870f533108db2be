import { type EventAssignmentDto, messages, type PublicUser, type UserListPage } from "@dorsal/shared";
import type { assignEventRequest, createUserRequest, updateUserRequest } from "@dorsal/shared/staff-requests";
import type { z } from "zod";
import type { AssignmentRecord } from "../data/assignments";
import type { EventRecord } from "../data/events";
import { toPublicUser } from "../data/users";
import type { Deps } from "./deps";
import { conflict, forbidden, invalid, notFound } from "./errors";
import { decodeCursor, encodeCursor } from "./page-cursor";
import { hashPassword } from "./passwords";
import type { SessionClaims } from "./tokens";

type CreateUserInput = z.output<typeof createUserRequest>;
type UpdateUserInput = z.output<typeof updateUserRequest>;
type AssignEventInput = z.output<typeof assignEventRequest>;

/** Newest assignment first; assignments of the same millisecond by the higher (newer) event. */
const newestFirst = (a: AssignmentRecord, b: AssignmentRecord) =>
  b.assignedAt.localeCompare(a.assignedAt) || b.eventId - a.eventId;

async function eventsById(deps: Deps): Promise<Map<number, EventRecord>> {
  // An organizer has tens of events: one query for all beats a lookup per assignment.
  return new Map((await deps.events.list()).map((event) => [event.id, event]));
}

async function existingUser(deps: Deps, userId: string) {
  const user = await deps.users.get(userId);
  if (!user) throw notFound(messages.userNotFound);
  return user;
}

/**
 * 'Crear Usuario Fotógrafo' (spec §2.7):
 * 1. the assigned event must exist — the photographer starts with it as their only event;
 * 2. the password is stored as a scrypt hash only;
 * 3. the email is claimed with a conditional write (no transactions), so a second account with the
 *    same email is refused even when both requests race;
 * 4. the event becomes the first assignment, written after the account: a crash in between leaves
 *    a photographer with no events ('Sin eventos asignados'), whom the admin assigns again.
 * `assignedBy` is the admin's id when an admin session creates the account.
 */
export async function createUser(
  deps: Deps,
  input: CreateUserInput,
  assignedBy: string | null = null,
): Promise<PublicUser> {
  if (!(await deps.events.get(input.assignedEventId))) {
    throw invalid(messages.eventNotFound, [{ path: "assignedEventId", message: messages.eventNotFound }]);
  }
  const created = await deps.users.create({
    email: input.email,
    passwordHash: await hashPassword(input.password),
    role: input.role,
    name: input.name,
    assignedEventId: input.assignedEventId,
  });
  if (!created) throw conflict(messages.emailTaken);
  await deps.assignments.assign({
    userId: created.id,
    eventId: input.assignedEventId,
    role: "photographer",
    notes: null,
    assignedBy,
  });
  return toPublicUser(created);
}

/**
 * A page of accounts, newest first, without password hashes; a photographer's row names the event
 * of their newest assignment (null when they have none left). Paged: athletes sign up by thousands.
 */
export async function listUsers(
  deps: Deps,
  options: { limit: number; cursor?: string | undefined },
): Promise<UserListPage> {
  const [page, events] = await Promise.all([
    deps.users.page({ limit: options.limit, cursor: decodeCursor(options.cursor) }),
    eventsById(deps),
  ]);
  const { users } = page;
  const latest = new Map(
    await Promise.all(
      users
        .filter((user) => user.role === "photographer")
        .map(async (user) => {
          const assignments = (await deps.assignments.ofUser(user.id)).sort(newestFirst);
          const event = assignments.map((assignment) => events.get(assignment.eventId)).find(Boolean);
          return [user.id, event?.name ?? null] as const;
        }),
    ),
  );
  return {
    users: users.map((user) => ({ ...toPublicUser(user), latestEventName: latest.get(user.id) ?? null })),
    cursor: encodeCursor(page.cursor),
  };
}

/**
 * The edit dialog's save (spec §5 'Edit user'). An admin cannot change their own role: one click
 * would lock them out of every admin screen. The email stays unique as in `createUser`.
 */
export async function updateUser(
  deps: Deps,
  session: SessionClaims,
  userId: string,
  input: UpdateUserInput,
): Promise<PublicUser> {
  const user = await existingUser(deps, userId);
  if (user.id === session.userId && input.role !== user.role) throw forbidden(messages.ownRoleLocked);
  const result = await deps.users.update(user, input);
  switch (result.status) {
    case "updated":
      // A new role ends the account's sessions (they carry the old one) from the next request.
      deps.tokens.forget(user.id);
      return toPublicUser(result.user);
    case "email_taken":
      throw conflict(messages.emailTaken);
    case "stale":
      if (!(await deps.users.get(userId))) throw notFound(messages.userNotFound);
      throw conflict(messages.userChangedMeanwhile);
  }
}

/**
 * Deletes a non-admin account, then its assignments; the account's sessions end with it, from
 * the next request.
 */
export async function deleteUser(deps: Deps, userId: string): Promise<{ success: true }> {
  const user = await existingUser(deps, userId);
  if (user.role === "admin") throw forbidden(messages.adminNotDeletable);
  await deps.users.delete(user);
  deps.tokens.forget(user.id);
  await deps.assignments.removeAllOfUser(user.id);
  return { success: true };
}

function toAssignmentDto(assignment: AssignmentRecord, event: EventRecord): EventAssignmentDto {
  return {
    assignmentId: assignment.assignmentId,
    eventId: assignment.eventId,
    eventName: event.name,
    eventLocation: event.location,
    role: assignment.role,
    notes: assignment.notes,
    assignedAt: assignment.assignedAt,
  };
}

/**
 * The events assigned to a user, newest assignment first. Assignments of an event deleted
 * meanwhile are left out: the photographer can no longer upload there anyway.
 */
export async function listAssignments(deps: Deps, userId: string): Promise<EventAssignmentDto[]> {
  await existingUser(deps, userId);
  const [assignments, events] = await Promise.all([deps.assignments.ofUser(userId), eventsById(deps)]);
  return assignments.sort(newestFirst).flatMap((assignment) => {
    const event = events.get(assignment.eventId);
    return event ? [toAssignmentDto(assignment, event)] : [];
  });
}

/**
 * Gives a photographer one more event (spec §3 photographer_event_assignments): they may upload to
 * it from the next request on. The conditional write makes a second assignment of the same event
 * a 409 ('Este evento ya está asignado al fotógrafo'), even when two admins race.
 */
export async function assignEvent(
  deps: Deps,
  session: SessionClaims,
  userId: string,
  input: AssignEventInput,
): Promise<EventAssignmentDto> {
  const user = await existingUser(deps, userId);
  if (user.role !== "photographer") throw invalid(messages.onlyPhotographersAssigned);
  const event = await deps.events.get(input.eventId);
  if (!event) throw invalid(messages.eventNotFound, [{ path: "eventId", message: messages.eventNotFound }]);
  const assignment = await deps.assignments.assign({
    userId,
    eventId: input.eventId,
    role: input.role,
    notes: input.notes || null,
    assignedBy: session.userId,
  });
  if (!assignment) throw conflict(messages.eventAlreadyAssigned);
  return toAssignmentDto(assignment, event);
}

/** Takes an event away from a photographer; their next upload to it is refused (403). */
export async function unassignEvent(deps: Deps, userId: string, eventId: number): Promise<{ success: true }> {
  await existingUser(deps, userId);
  if (!(await deps.assignments.remove(userId, eventId))) throw notFound(messages.assignmentNotFound);
  return { success: true };
}
