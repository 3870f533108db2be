import { resumeEventDeletions } from "../app/event-deletion";
import { resumeFaceIndexing } from "../app/face-search";
import { recountChangedEvents } from "../app/processing";
import { recountSalesMonths } from "../app/sales-report";
import { getContainer } from "../compose";
import { lambdaEntry } from "./middy";

/** Events whose counters moved less than this long ago are left for a later run (the pipeline may still be on them). */
const quietMinutes = 15;
/**
 * A running deletion none of whose slices recorded anything for this long has stopped: its workflow
 * failed for good (every retry spent). A live one records a page every few seconds.
 */
const stalledDeletionMinutes = 30;
/** Likewise for selfie search's indexing of an event's photos, which records a page of ten photos at a time. */
const stalledIndexingMinutes = 30;

/**
 * EventBridge schedule (infra/lib/stateless-stack.ts): starts the recount workflow of each event
 * whose counters changed since its last recount, so one a stopped Lambda left a write behind is exact again
 * (docs/data-model.md, Counters); recounts the dashboard's two months of sales figures; and starts
 * again the event deletions and selfie-search indexing runs whose workflow stopped. The local
 * runtime does all of it at start-up instead.
 */
export const handler = lambdaEntry("counters recount", async () => {
  const { deps, logger } = await getContainer();
  const { started } = await recountChangedEvents(deps, { quietMinutes });
  if (started.length > 0) logger.info("event counter recounts started", { eventIds: started });
  const salesMonths = await recountSalesMonths(deps);
  if (salesMonths.length > 0) logger.warn("sales figures recounted", { months: salesMonths });
  const deletionsResumed = await resumeEventDeletions(deps, { stalledMinutes: stalledDeletionMinutes });
  if (deletionsResumed.length > 0) logger.warn("event deletions resumed", { eventIds: deletionsResumed });
  const indexingResumed = await resumeFaceIndexing(deps, { stalledMinutes: stalledIndexingMinutes });
  if (indexingResumed.length > 0) logger.warn("face indexing resumed", { eventIds: indexingResumed });
  return { recountsStarted: started, salesMonths, deletionsResumed, indexingResumed };
});
