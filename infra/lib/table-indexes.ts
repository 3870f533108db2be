import type { IConstruct } from "constructs";
import { type GlobalIndex, servingIndexNames, tableSchema } from "../../functions/src/data/table-schema";

/**
 * `-c leanIndexes=add|switch`: the steps of moving gsi1 queries to the lean index (docs/deploy.md,
 * "Lean indexes"). DynamoDB cannot change an index's projection, and CloudFormation creates or
 * deletes one index per update, so a table made with the old gsi1 gets there in three deploys:
 * - `add`: the lean index is created next to the old one (backfilled by DynamoDB); queries stay on the old;
 * - `switch`: queries go to the lean index, the old one stays (a rollback is a deploy with `add`);
 * - none (the default): the old index is removed. A new table is made this way at once.
 */
export const leanIndexesContext = "leanIndexes";

const steps = ["add", "switch", "done"] as const;
export type LeanIndexesStep = (typeof steps)[number];

export function leanIndexesStep(scope: IConstruct): LeanIndexesStep {
  const given: unknown = scope.node.tryGetContext(leanIndexesContext) ?? "done";
  const step = steps.find((candidate) => candidate === given);
  if (!step) throw new Error(`The ${leanIndexesContext} context value is add or switch, not ${JSON.stringify(given)}`);
  return step;
}

/** The table's global indexes at this step, and the one gsi1 queries go to. */
export function tableIndexesAt(step: LeanIndexesStep): { indexes: GlobalIndex[]; gsi1IndexName: string } {
  const retired = step === "done" ? [] : tableSchema.retiredIndexes;
  const oldGsi1 = tableSchema.retiredIndexes.find((index) => index.keys === "gsi1");
  return {
    indexes: [...retired, ...tableSchema.globalIndexes],
    gsi1IndexName: step === "add" && oldGsi1 ? oldGsi1.name : servingIndexNames.gsi1,
  };
}
