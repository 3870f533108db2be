import middy from "@middy/core";
import type { Context } from "aws-lambda";
import { type ContainerLoader, getContainer } from "../compose";
import { createLogger, type Logger } from "../logger";

/**
 * The middy stack of every Lambda entry that is not HTTP (those have theirs in
 * functions/src/http/handler.ts): pipeline tasks, the starter, unzip, the schedules and the admin
 * bootstrap. An error the handler throws is logged as a JSON line by the container's logger, with
 * its name, message and stack, then rethrown as it is: Step Functions' Retry and Catch match on
 * its name (`PermanentError`, functions/src/pipeline/definition.ts), and SQS, S3's asynchronous
 * invocations and the custom-resource framework retry or report on the same error.
 *
 * middy's early timeout is off: a function that runs out of time ends as Lambda ends it, with the
 * `Sandbox.Timedout` error the state machine and the retries expect.
 */
export function lambdaEntry<Event, Result>(
  name: string,
  base: (event: Event, context: Context) => Promise<Result>,
  load: ContainerLoader = getContainer,
) {
  return middy<Event, Result, Error, Context>(base, { timeoutEarlyInMillis: 0 }).use({
    onError: async ({ error }) => {
      // A container that cannot be built (bad configuration) is often the error itself.
      const logger: Logger = await load().then(
        (container) => container.logger,
        () => createLogger("info"),
      );
      logger.error(`${name} failed`, error);
      // No response set: middy rethrows `error` itself.
    },
  });
}
