import { deleteEventSlice } from "../../app/event-deletion";
import { getContainer } from "../../compose";
import { deletionSliceMs, type EventDeletionInput } from "../../jobs/event-deletion-definition";
import { lambdaEntry } from "../middy";

/** Step Functions task "DeleteSlice" of the event-deletion workflow: the function the local runner calls too. */
export const handler = lambdaEntry("event deletion slice", async (input: EventDeletionInput) =>
  deleteEventSlice((await getContainer()).deps, input, deletionSliceMs.lambda),
);
