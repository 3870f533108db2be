import { sendDueNotifications } from "../app/notifications";
import { type ContainerLoader, getContainer } from "../compose";
import { lambdaEntry } from "./middy";

/**
 * EventBridge schedule (infra/lib/stateless-stack.ts): emails the 'avísame' subscriptions whose
 * bib's photos stopped arriving (docs/features.md). The local runtime calls the same handler on a timer.
 */
export const createNotificationsSweepHandler = (load: ContainerLoader) => async () => {
  const { deps, logger } = await load();
  const result = await sendDueNotifications(deps);
  if (result.sent + result.failed > 0) logger.info("photo notifications sent", result);
  return result;
};

export const handler = lambdaEntry("photo notifications", createNotificationsSweepHandler(getContainer));
