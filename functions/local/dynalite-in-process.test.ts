import { describe, expect, it } from "vitest";
import { copyOfJson } from "./dynalite-in-process";

/** A table's description as dynalite keeps it in LevelDB (JSON): nested objects and arrays of them. */
const description = () => ({
  TableName: "dorsal",
  TableStatus: "ACTIVE",
  CreationDateTime: 1764633600.5,
  ItemCount: 0,
  AttributeDefinitions: [
    { AttributeName: "pk", AttributeType: "S" },
    { AttributeName: "sk", AttributeType: "S" },
  ],
  KeySchema: [
    { AttributeName: "pk", KeyType: "HASH" },
    { AttributeName: "sk", KeyType: "RANGE" },
  ],
  GlobalSecondaryIndexes: [
    {
      IndexName: "gsi1v2",
      KeySchema: [{ AttributeName: "gsi1pk", KeyType: "HASH" }],
      Projection: { ProjectionType: "INCLUDE", NonKeyAttributes: ["id", "bib"] },
      IndexStatus: "ACTIVE",
    },
  ],
  BillingModeSummary: { BillingMode: "PAY_PER_REQUEST" },
  StreamSpecification: null,
  DeletionProtectionEnabled: false,
});

describe("copyOfJson", () => {
  it("copies a table's description whole, as structuredClone would, sharing nothing with it", () => {
    const original = description();
    const copy = copyOfJson(original);
    expect(copy).toEqual(structuredClone(original));
    copy.GlobalSecondaryIndexes[0]?.Projection.NonKeyAttributes.push("changed");
    copy.KeySchema[0] = { AttributeName: "changed", KeyType: "HASH" };
    copy.BillingModeSummary.BillingMode = "PROVISIONED";
    expect(original).toEqual(description());
  });
});
