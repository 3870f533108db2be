import { reconcilePendingSales } from "../app/settlement";
import { type ContainerLoader, getContainer } from "../compose";
import { lambdaEntry } from "./middy";

/**
 * EventBridge schedule (infra/lib/stateless-stack.ts): settles the sales whose payment event never
 * arrived, by asking Wompi (docs/payments.md). The local runtime calls the same handler on a timer.
 */
export const createReconcileHandler = (load: ContainerLoader) => async () => {
  const { deps, logger } = await load();
  const result = await reconcilePendingSales(deps);
  if (result.settled + result.abandoned > 0) logger.info("pending sales reconciled", result);
  return result;
};

export const handler = lambdaEntry("sales reconciliation", createReconcileHandler(getContainer));
