import { faceIndexingSlice } from "../../app/face-search";
import { getContainer } from "../../compose";
import { type EventJobInput, jobSliceMs } from "../../jobs/definitions";
import { lambdaEntry } from "../middy";

/** The task of the face-indexing workflow (jobs/definitions.ts): the function the local runner calls too. */
export const handler = lambdaEntry("face indexing slice", async (input: EventJobInput) =>
  faceIndexingSlice((await getContainer()).deps, input, jobSliceMs.lambda),
);
