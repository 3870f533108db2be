/**
 * `npm run deploy:check`: before `cdk deploy`, asks the account (credentials and region from the
 * shell, as cdk uses them) whether Lambda will accept the pipeline's reserved concurrency, and
 * exits 1 with the way out when it will not. Read-only: GetAccountSettings, ListFunctions,
 * GetFunctionConcurrency.
 */
import {
  GetAccountSettingsCommand,
  GetFunctionConcurrencyCommand,
  LambdaClient,
  paginateListFunctions,
} from "@aws-sdk/client-lambda";
import { concurrencyVerdict } from "../lib/concurrency";

/** CloudFormation names the stack's functions `<stack>-<construct id>…`. */
const dorsalFunctionPrefix = "DorsalStateless-";

async function accountConcurrency(lambda: LambdaClient) {
  const settings = await lambda.send(new GetAccountSettingsCommand({}));
  const limit = settings.AccountLimit?.ConcurrentExecutions;
  const unreserved = settings.AccountLimit?.UnreservedConcurrentExecutions;
  if (limit === undefined || unreserved === undefined) throw new Error("Lambda's GetAccountSettings gave no limits");

  let reservedByDorsal = 0;
  for await (const page of paginateListFunctions({ client: lambda }, {})) {
    for (const { FunctionName } of page.Functions ?? []) {
      if (!FunctionName?.startsWith(dorsalFunctionPrefix)) continue;
      const concurrency = await lambda.send(new GetFunctionConcurrencyCommand({ FunctionName }));
      reservedByDorsal += concurrency.ReservedConcurrentExecutions ?? 0;
    }
  }
  return { limit, unreserved, reservedByDorsal };
}

try {
  const verdict = concurrencyVerdict(await accountConcurrency(new LambdaClient({})));
  console.log(verdict.message);
  process.exitCode = verdict.ok ? 0 : 1;
} catch (error) {
  console.error(
    `Could not read the account's Lambda settings (credentials, region?): ${error instanceof Error ? error.message : error}`,
  );
  process.exitCode = 2;
}
