import { CloudFormationClient, DescribeStacksCommand } from "@aws-sdk/client-cloudformation";
import { DescribeTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { S3Client } from "@aws-sdk/client-s3";
import { localStorageCredentials } from "../../src/adapters/local/storage-credentials";
import { tableSchema } from "../../src/data/table-schema";
import type { BucketRole } from "../../src/ports/object-store";
import { serveObjectStore } from "../object-store-server";
import { startDynalite } from "../storage";

/** One side of a migration: a table and the two buckets, spoken to through the DynamoDB and S3 protocols. */
export interface Store {
  /** What the messages call it: the data dir, the stack, or the endpoints. */
  label: string;
  dynamo: DynamoDBClient;
  tableName: string;
  s3: S3Client;
  buckets: Record<BucketRole, string>;
  close(): Promise<void>;
}

/** Where to copy to: a deployed stack's outputs, or names (and endpoints, for stand-ins) given by hand. */
export type TargetSpec =
  | { kind: "stack"; stackName: string; region?: string }
  | {
      kind: "endpoints";
      tableName: string;
      buckets: Record<BucketRole, string>;
      region?: string;
      dynamodbEndpoint?: string;
      s3Endpoint?: string;
    };

/**
 * A stopped runtime's data dir through the same protocols the runtime serves: dynalite over its
 * LevelDB files, s3rver behind its signature gate on a loopback port, signed with the data dir's own key.
 */
export async function openLocalSource(
  dataDir: string,
  names: { tableName: string; buckets: Record<BucketRole, string> },
): Promise<Store> {
  const dynalite = await startDynalite(dataDir);
  const objects = await serveObjectStore(dataDir, names.buckets);
  const region = "us-east-1";
  const credentials = { accessKeyId: "local", secretAccessKey: "local" };
  const dynamo = new DynamoDBClient({ endpoint: dynalite.endpoint, region, credentials });
  const s3 = s3Client({
    region,
    endpoint: objects.endpoint,
    forcePathStyle: true,
    credentials: await localStorageCredentials(dataDir),
  });
  return storeOf(dataDir, { dynamo, s3 }, names, async () => {
    await objects.close();
    await dynalite.close();
  });
}

/**
 * The target's clients. Credentials come from the SDK's default chain (environment, profile, SSO,
 * role): a stack's names from its CloudFormation outputs, the DorsalStateful stack's
 * TableName, OriginalsBucketName and DerivedBucketName.
 */
export async function openTarget(spec: TargetSpec): Promise<Store> {
  const region = spec.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
  const names = spec.kind === "stack" ? await stackNames(spec.stackName, region) : spec;
  const dynamodbEndpoint = spec.kind === "endpoints" ? spec.dynamodbEndpoint : undefined;
  const s3Endpoint = spec.kind === "endpoints" ? spec.s3Endpoint : undefined;
  const dynamo = new DynamoDBClient({
    ...(region ? { region } : {}),
    ...(dynamodbEndpoint ? { endpoint: dynamodbEndpoint } : {}),
  });
  const s3 = s3Endpoint
    ? s3Client({ ...(region ? { region } : {}), endpoint: s3Endpoint, forcePathStyle: true })
    : s3Client(region ? { region } : {});
  return storeOf(
    spec.kind === "stack" ? `stack ${spec.stackName}` : (dynamodbEndpoint ?? "AWS"),
    { dynamo, s3 },
    names,
  );
}

function storeOf(
  label: string,
  clients: { dynamo: DynamoDBClient; s3: S3Client },
  names: { tableName: string; buckets: Record<BucketRole, string> },
  release: () => Promise<void> = async () => undefined,
): Store {
  return {
    label,
    ...clients,
    tableName: names.tableName,
    buckets: names.buckets,
    async close() {
      clients.dynamo.destroy();
      clients.s3.destroy();
      await release();
    },
  };
}

async function stackNames(stackName: string, region: string | undefined) {
  const client = new CloudFormationClient(region ? { region } : {});
  try {
    const { Stacks: stacks } = await client.send(new DescribeStacksCommand({ StackName: stackName }));
    const outputs = new Map((stacks?.[0]?.Outputs ?? []).map((output) => [output.OutputKey, output.OutputValue]));
    const output = (key: string) => {
      const value = outputs.get(key);
      if (!value) throw new Error(`El stack ${stackName} no tiene la salida ${key}: ¿es el stack DorsalStateful?`);
      return value;
    };
    return {
      tableName: output("TableName"),
      buckets: { originals: output("OriginalsBucketName"), derived: output("DerivedBucketName") },
    };
  } finally {
    client.destroy();
  }
}

/**
 * Items are written as they are, so the target's table must have the indexes their key attributes
 * feed, with the keys of this version's schema (a stack deployed with the same `leanIndexes` phase:
 * docs/deploy.md). Returns what is missing, in words for the operator.
 */
export async function missingIndexes(target: Store): Promise<string[]> {
  const { Table: table } = await target.dynamo.send(new DescribeTableCommand({ TableName: target.tableName }));
  const present = new Map((table?.GlobalSecondaryIndexes ?? []).map((index) => [index.IndexName, index]));
  return tableSchema.globalIndexes.flatMap((expected) => {
    const index = present.get(expected.name);
    const keys = index?.KeySchema?.map((key) => key.AttributeName).join(",");
    if (!index) return [`falta el índice ${expected.name}`];
    if (keys !== `${expected.partitionKey},${expected.sortKey}`)
      return [`el índice ${expected.name} tiene otras claves (${keys})`];
    if (index.IndexStatus && index.IndexStatus !== "ACTIVE")
      return [`el índice ${expected.name} está ${index.IndexStatus}`];
    return [];
  });
}

/** As every S3 client of the house: checksums only when required (s3rver corrupts streamed bodies otherwise). */
function s3Client(options: ConstructorParameters<typeof S3Client>[0] & object): S3Client {
  return new S3Client({
    ...options,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}
