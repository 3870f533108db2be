import type { EventDeletionInput } from "../jobs/event-deletion-definition";

/** Work that outlasts a request: Step Functions workflows in AWS, their emulation locally. */
export interface BackgroundJobs {
  /** Starts an event's deletion workflow; starting the same input again changes nothing. */
  deleteEvent(input: EventDeletionInput): Promise<void>;
}
