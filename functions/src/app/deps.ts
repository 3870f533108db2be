import type { Config } from "../config";
import type { ApplicationRepository } from "../data/applications";
import type { AssignmentRepository } from "../data/assignments";
import type { BibLinkRepository } from "../data/bib-links";
import type { CredentialRepository } from "../data/credentials";
import type { DownloadCodeRepository } from "../data/download-codes";
import type { DownloadCountRepository } from "../data/download-counts";
import type { DriveRepository } from "../data/drive";
import type { EventConfigRepository } from "../data/event-configs";
import type { EventDeletionRepository } from "../data/event-deletion";
import type { EventRepository } from "../data/events";
import type { FaceIndexingRepository } from "../data/face-indexing";
import type { LoginAttemptRepository } from "../data/login-attempts";
import type { NotificationRepository } from "../data/notifications";
import type { ParticipantRepository } from "../data/participants";
import type { PhotoRepository } from "../data/photos";
import type { PreflightRunRepository } from "../data/preflight-runs";
import type { PricingRepository } from "../data/pricing";
import type { SalesRepository } from "../data/sales";
import type { SettingsRepository } from "../data/settings";
import type { StartListRepository } from "../data/start-lists";
import type { UploadRepository } from "../data/uploads";
import type { UserRepository } from "../data/users";
import type { ZipBatchRepository } from "../data/zip-batches";
import type { Logger } from "../logger";
import type { BackgroundJobs } from "../ports/background-jobs";
import type { Clock } from "../ports/clock";
import type { Drive } from "../ports/drive";
import type { FaceSearch } from "../ports/face-search";
import type { Ids } from "../ports/ids";
import type { Mailer } from "../ports/mail";
import type { Metrics } from "../ports/metrics";
import type { ObjectStore } from "../ports/object-store";
import type { PaymentGateway } from "../ports/payments";
import type { PipelineQueue, PipelineStarter } from "../ports/pipeline";
import type { PreflightLauncher, QuotaReader } from "../ports/preflight";
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
  /** Measurements for the performance dashboard. */
  metrics: Metrics;
  pipeline: PipelineStarter;
  /** Work that outlasts a request: an event's deletion. */
  jobs: BackgroundJobs;
  /** What waits in the pipeline, for the dashboard. */
  pipelineQueue: PipelineQueue;
  /** Loaded on first use: HTTP functions never pay for recognition engines. */
  vision: () => Promise<Vision>;
  /** Selfie search's engine (issue 23); its clients and models load on first use. */
  faceSearch: FaceSearch;
  /** Where the indexing of an event's existing photos for selfie search has got. */
  faceIndexing: FaceIndexingRepository;
  tokens: TokenService;
  users: UserRepository;
  credentials: CredentialRepository;
  loginAttempts: LoginAttemptRepository;
  settings: SettingsRepository;
  assignments: AssignmentRepository;
  events: EventRepository;
  eventConfigs: EventConfigRepository;
  startLists: StartListRepository;
  /** 'Avísame' subscriptions to bibs. */
  notifications: NotificationRepository;
  eventDeletion: EventDeletionRepository;
  photos: PhotoRepository;
  bibLinks: BibLinkRepository;
  participants: ParticipantRepository;
  zipBatches: ZipBatchRepository;
  uploads: UploadRepository;
  /**
   * The cloud drive (Google Drive, or the local runtime's stand-in) and the key its tokens are
   * sealed with; null where none is configured. Both load on first use.
   */
  drive: { api: () => Promise<Drive>; sealKey: () => Promise<Buffer> } | null;
  /** Admins' drive connections and the authorizations under way. */
  drives: DriveRepository;
  pricing: PricingRepository;
  applications: ApplicationRepository;
  downloadCounts: DownloadCountRepository;
  downloadCodes: DownloadCodeRepository;
  sales: SalesRepository;
  payments: PaymentGateway;
  preflightRuns: PreflightRunRepository;
  /** Starts a recorded preflight run where it may take minutes. */
  preflight: PreflightLauncher;
  /** The platform's quotas, as the preflight weighs them. */
  quotas: QuotaReader;
  /**
   * The site's origin for a request that came with these headers: where the buyer comes back to
   * after paying. On AWS the site's own domain (requests reach the function through CloudFront, so
   * headers name API Gateway); locally the origin the browser used, so a phone on the LAN comes back
   * to the LAN address.
   */
  siteOrigin(headers: { origin?: string | undefined; host?: string | undefined }): string;
  /**
   * The site's address from configuration, for links that leave in an email: on AWS its domain,
   * locally PUBLIC_URL. Never a request's Origin, which the caller chooses (an emailed link must
   * not point where a crafted request says).
   */
  siteUrl: string;
  /** Email: SES on AWS, the local outbox in the embedded runtime. */
  mail: Mailer;
  /** For what a use case notices but must not fail on (a refused payment event, a lookup that failed). */
  logger: Logger;
}
