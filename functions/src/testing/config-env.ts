/**
 * The fewest variables a valid configuration of each runtime needs, for tests of what the
 * configuration decides (each test adds the variable it is about).
 */
export const localEnv = {
  DORSAL_RUNTIME: "local",
  TABLE_NAME: "dorsal",
  ORIGINALS_BUCKET: "dorsal-originals",
  DERIVED_BUCKET: "dorsal-derived",
  DYNAMODB_ENDPOINT: "http://127.0.0.1:4567",
  S3_ENDPOINT: "http://localhost:3000",
  DATA_DIR: "/tmp/dorsal",
} as const;

/** As the stack sets it, less JWT_PUBLIC_JWK, which the tests give or leave out on purpose. */
export const awsEnv = {
  DORSAL_RUNTIME: "aws",
  TABLE_NAME: "dorsal",
  ORIGINALS_BUCKET: "dorsal-originals",
  DERIVED_BUCKET: "dorsal-derived",
  CLOUDFRONT_DOMAIN: "d1.cloudfront.net",
  CLOUDFRONT_KEY_PAIR_ID: "K1",
  CLOUDFRONT_PRIVATE_KEY_SECRET_ARN: "arn:aws:secretsmanager:us-east-1:1:secret:cf",
} as const;
