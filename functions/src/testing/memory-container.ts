import { type Container, composeInMemory, type InMemoryFakes } from "../compose";
import { type LocalConfig, parseConfig } from "../config";

/**
 * The container of a use-case test: the composition root's own assembly of every repository and
 * use-case dependency, over the in-memory table and object store and whatever fakes the test
 * brings (adapters/memory/). Endpoints and DATA_DIR are required by the config and never used.
 */
export function memoryContainer(fakes: InMemoryFakes = {}, settings: Record<string, string> = {}): Promise<Container> {
  const config = parseConfig({
    DORSAL_RUNTIME: "local",
    TABLE_NAME: "memoria",
    ORIGINALS_BUCKET: "memoria-originales",
    DERIVED_BUCKET: "memoria-derivados",
    DYNAMODB_ENDPOINT: "http://memoria.invalid",
    S3_ENDPOINT: "http://memoria.invalid",
    DATA_DIR: "/memoria-sin-disco",
    LOG_LEVEL: "silent",
    ...settings,
  }) as LocalConfig;
  return composeInMemory(config, fakes);
}
