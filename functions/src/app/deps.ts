import type { Config } from "../config";
import type { EventConfigRepository } from "../data/event-configs";
import type { EventRepository } from "../data/events";
import type { PhotoRepository } from "../data/photos";
import type { UserRepository } from "../data/users";
import type { ZipBatchRepository } from "../data/zip-batches";
import type { Clock } from "../ports/clock";
import type { Ids } from "../ports/ids";
import type { ObjectStore } from "../ports/object-store";
import type { PipelineStarter } from "../ports/pipeline";
import type { Table } from "../ports/table";
import type { UrlSigner } from "../ports/url-signer";
import type { Vision } from "../ports/vision";
import type { TokenService } from "./tokens";

/** What the use cases receive from the composition root; they never build a client themselves. */
export interface Deps {
  config: Config;
  clock: Clock;
  ids: Ids;
  table: Table;
  objects: ObjectStore;
  urls: UrlSigner;
  pipeline: PipelineStarter;
  /** Loaded on first use: HTTP functions never pay for recognition engines. */
  vision: () => Promise<Vision>;
  tokens: TokenService;
  users: UserRepository;
  events: EventRepository;
  eventConfigs: EventConfigRepository;
  photos: PhotoRepository;
  zipBatches: ZipBatchRepository;
}
