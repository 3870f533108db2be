import { deleteEventSlice } from "../../app/event-deletion";
import { getContainer } from "../../compose";
import { type EventJobInput, jobSliceMs } from "../../jobs/definitions";
import { lambdaEntry } from "../middy";

/** The task of the event-deletion workflow (jobs/definitions.ts): the function the local runner calls too. */
export const handler = lambdaEntry("event deletion slice", async (input: EventJobInput) =>
  deleteEventSlice((await getContainer()).deps, input, jobSliceMs.lambda),
);
