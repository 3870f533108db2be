import { recountSlice } from "../../app/processing";
import { getContainer } from "../../compose";
import { type EventJobInput, jobSliceMs } from "../../jobs/definitions";
import { lambdaEntry } from "../middy";

/** The task of the counter-recount workflow (jobs/definitions.ts): the function the local runner calls too. */
export const handler = lambdaEntry("counter recount slice", async (input: EventJobInput) =>
  recountSlice((await getContainer()).deps, input, jobSliceMs.lambda),
);
