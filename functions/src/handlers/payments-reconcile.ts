import { reconcilePendingSales } from "../app/sales";
import { getContainer } from "../compose";

/**
 * EventBridge schedule (infra/lib/stateless-stack.ts): settles the sales whose payment event never
 * arrived, by asking Wompi (docs/payments.md). The local runtime runs the same use case on a timer.
 */
export const handler = async () => {
  const { deps, logger } = await getContainer();
  const result = await reconcilePendingSales(deps);
  if (result.settled + result.abandoned > 0) logger.info("pending sales reconciled", result);
  return result;
};
