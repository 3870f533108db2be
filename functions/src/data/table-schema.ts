/** The table's key schema, shared by the CDK stack and the local runtime's table creation. */
export const tableSchema = {
  partitionKey: "pk",
  sortKey: "sk",
  globalIndexes: [
    { name: "gsi1", partitionKey: "gsi1pk", sortKey: "gsi1sk" },
    { name: "gsi2", partitionKey: "gsi2pk", sortKey: "gsi2sk" },
  ],
  timeToLiveAttribute: "ttl",
} as const;
