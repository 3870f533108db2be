import type { BackgroundJob, EventJobInput } from "../jobs/definitions";

/** Work that outlasts a request: Step Functions workflows in AWS, their emulation locally. */
export interface BackgroundJobs {
  /** Starts a job's workflow on an event; starting the same job and input again changes nothing. */
  start(job: BackgroundJob, input: EventJobInput): Promise<void>;
}
