import type { AssignmentRole } from "@dorsal/shared";
import type { Clock } from "../ports/clock";
import type { Ids } from "../ports/ids";
import type { Key, Table } from "../ports/table";
import { assignmentSortPrefix, keys, photographersOfEventPartition, userPartition } from "./keys";
import { queryAll } from "./query-all";
import type { UserRecord } from "./users";

/** spec §3 photographer_event_assignments: one item per (photographer, event). */
export interface AssignmentRecord {
  assignmentId: string;
  userId: string;
  eventId: number;
  role: AssignmentRole;
  notes: string | null;
  assignedAt: string;
  /** The admin who assigned it; null when it came with the account (created outside an admin session). */
  assignedBy: string | null;
}

type StoredAssignment = AssignmentRecord & { pk: string; sk: string };
/** What a user's partition holds: the account and its assignments. */
type PartitionItem = (UserRecord & { pk: string; sk: string }) | StoredAssignment;

const isAssignment = (item: PartitionItem): item is StoredAssignment => item.sk.startsWith(assignmentSortPrefix);

export function createAssignmentRepository(table: Table, ids: Ids, clock: Clock) {
  /**
   * Every item of a user's partition: the account (`USER`) and its assignments (`ASSIGN#…`). Read
   * consistently, so a removed assignment or a deleted account stops an upload at once.
   */
  const userPartitionItems = (userId: string) =>
    queryAll<PartitionItem>(table, { partition: userPartition(userId), consistent: true });

  async function deleteAll(assignments: Pick<AssignmentRecord, "userId" | "eventId">[]): Promise<void> {
    await table.batchDelete(assignments.map((assignment) => keys.assignment(assignment.userId, assignment.eventId)));
  }

  return {
    /** Writes the assignment unless the photographer already has this event; undefined when it does. */
    async assign(input: Omit<AssignmentRecord, "assignmentId" | "assignedAt">): Promise<AssignmentRecord | undefined> {
      const assignment: AssignmentRecord = {
        ...input,
        assignmentId: ids.newId(),
        assignedAt: clock.now().toISOString(),
      };
      const written = await table.put(
        {
          ...keys.assignment(input.userId, input.eventId),
          ...keys.photographersOfEventIndex(input.eventId, input.userId),
          type: "assignment",
          ...assignment,
        },
        { ifAbsent: true },
      );
      return written ? assignment : undefined;
    },

    /** A user's assignments in event-id order. */
    async ofUser(userId: string): Promise<AssignmentRecord[]> {
      return (await userPartitionItems(userId)).filter(isAssignment);
    },

    /**
     * The account and the ids of its assigned events, from one query of the user's partition: the
     * upload check reads both at every upload, so it costs a single round trip.
     */
    async accountWithEvents(userId: string): Promise<{ user: UserRecord | undefined; eventIds: number[] }> {
      const items = await userPartitionItems(userId);
      const user = items.find((item): item is UserRecord & { pk: string; sk: string } => !isAssignment(item));
      return { user, eventIds: items.filter(isAssignment).map((assignment) => assignment.eventId) };
    },

    /** Whether there was an assignment to remove. */
    remove: (userId: string, eventId: number) => table.delete(keys.assignment(userId, eventId)),

    /** With the account gone its assignments would only linger in its events' photographer lists. */
    async removeAllOfUser(userId: string): Promise<void> {
      await deleteAll((await userPartitionItems(userId)).filter(isAssignment));
    },

    /** For deleting an event: its photographers are found through the index, without a scan. */
    async removeAllOfEvent(eventId: number): Promise<void> {
      const entries = await queryAll<Key>(table, {
        index: "gsi1",
        partition: photographersOfEventPartition(eventId),
        attributes: ["pk", "sk"],
      });
      await table.batchDelete(entries.map(({ pk, sk }) => ({ pk, sk })));
    },
  };
}
export type AssignmentRepository = ReturnType<typeof createAssignmentRepository>;
