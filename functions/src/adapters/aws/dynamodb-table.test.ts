import { describe, expect, it } from "vitest";
import { createDynamoTable, type DocumentOutput, type DocumentSender, type DynamoOperation } from "./dynamodb-table";

/** A DynamoDB that answers only when told to, so a test decides what is in flight when. */
function heldDynamo() {
  const stored = { pk: "EVENT#1", sk: "EVENT", name: "Media Maratón" };
  const calls: { operation: DynamoOperation; answer: () => void }[] = [];
  const send: DocumentSender = (operation, input) =>
    new Promise<DocumentOutput>((resolve) => {
      calls.push({
        operation,
        answer: () => {
          if (operation === "UpdateItem") {
            stored.name = String((input.ExpressionAttributeValues as Record<string, unknown>)[":v1"]);
            resolve({ Attributes: { ...stored } });
          } else resolve({ Item: { ...stored } });
        },
      });
    });
  const answerAll = () => {
    for (const call of calls.splice(0)) call.answer();
  };
  return { table: createDynamoTable(send, "dorsal"), calls, answerAll };
}

const key = { pk: "EVENT#1", sk: "EVENT" };

describe("identical reads in flight", () => {
  it("share one call, each caller with its own copy", async () => {
    const dynamo = heldDynamo();
    const reads = [dynamo.table.get<{ name: string }>(key), dynamo.table.get<{ name: string }>(key)];
    expect(dynamo.calls).toHaveLength(1);
    dynamo.answerAll();
    const [first, second] = await Promise.all(reads);
    expect(first).toEqual({ ...key, name: "Media Maratón" });
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
  });

  it("are never joined by a read that starts after a write answered", async () => {
    const dynamo = heldDynamo();
    const before = dynamo.table.get<{ name: string }>(key);
    const write = dynamo.table.update({ key, set: { name: "Media Maratón de Medellín" } });
    // The write lands first, the read that started before it answers afterwards, with the old name.
    dynamo.calls[1]?.answer();
    await write;
    const after = dynamo.table.get<{ name: string }>(key);
    expect(dynamo.calls.map((call) => call.operation)).toEqual(["GetItem", "UpdateItem", "GetItem"]);
    dynamo.calls[2]?.answer();
    expect(await after).toMatchObject({ name: "Media Maratón de Medellín" });
    dynamo.calls[0]?.answer();
    await before;
  });

  it("are not joined by a different read", async () => {
    const dynamo = heldDynamo();
    const reads = [dynamo.table.get(key), dynamo.table.get({ ...key, sk: "STATS" })];
    expect(dynamo.calls).toHaveLength(2);
    dynamo.answerAll();
    await Promise.all(reads);
  });
});
