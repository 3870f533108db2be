import type {
  ApplicationStatus,
  PhotographerApplicationDto,
  PhotographerApplicationInput,
} from "@dorsal/shared/applications";
import type { Table } from "../ports/table";
import { applicationsByStatusPartition, applicationsPartition, keys } from "./keys";
import type { PageCursor } from "./photos";
import { queryThenGet } from "./query-all";

export type ApplicationRecord = PhotographerApplicationDto;

type StoredApplication = ApplicationRecord & { pk: string; sk: string };

export const toApplicationDto = (stored: ApplicationRecord): PhotographerApplicationDto => ({
  id: stored.id,
  fullName: stored.fullName,
  email: stored.email,
  phone: stored.phone,
  city: stored.city,
  experience: stored.experience,
  availability: stored.availability,
  cameraType: stored.cameraType,
  cameraModel: stored.cameraModel,
  lensDetails: stored.lensDetails,
  portfolioUrl: stored.portfolioUrl,
  previousEvents: stored.previousEvents,
  message: stored.message,
  status: stored.status,
  adminNotes: stored.adminNotes,
  createdAt: stored.createdAt,
  reviewedAt: stored.reviewedAt,
  reviewedBy: stored.reviewedBy,
  reviewedByEmail: stored.reviewedByEmail,
  assignedEventId: stored.assignedEventId,
  photographerUserId: stored.photographerUserId,
});

export interface Review {
  reviewedAt: string;
  reviewedBy: string;
  reviewedByEmail: string;
}

export function createApplicationRepository(table: Table) {
  /**
   * Moves a pending application to `status` in one conditional write, so of two reviews that race
   * only one wins; the other gets undefined. The status index moves with it.
   */
  const review = (application: ApplicationRecord, status: ApplicationStatus, fields: Record<string, unknown>) =>
    table.update<StoredApplication>({
      key: keys.photographerApplication(application.id),
      set: { status, ...fields, ...keys.applicationsByStatusIndex(status, application.createdAt, application.id) },
      conditions: [{ attribute: "status", op: "=", value: "pending" }],
    });

  return {
    async create(id: string, input: PhotographerApplicationInput, createdAt: string): Promise<ApplicationRecord> {
      const application: ApplicationRecord = {
        ...input,
        id,
        status: "pending",
        adminNotes: null,
        createdAt,
        reviewedAt: null,
        reviewedBy: null,
        reviewedByEmail: null,
        assignedEventId: null,
        photographerUserId: null,
      };
      await table.put({
        ...keys.photographerApplication(id),
        ...keys.applicationsByStatusIndex("pending", createdAt, id),
        ...keys.applicationsIndex(createdAt, id),
        type: "photographerApplication",
        ...application,
      });
      return application;
    },

    get: (id: string) => table.get<StoredApplication>(keys.photographerApplication(id)),

    /** A page of applications, newest first: all of them, or only those of one status. */
    async list(options: { status?: ApplicationStatus | undefined; limit: number; cursor?: PageCursor | undefined }) {
      const paging = { descending: true, limit: options.limit, ...(options.cursor ? { cursor: options.cursor } : {}) };
      const page = options.status
        ? await queryThenGet<StoredApplication>(table, {
            index: "gsi1",
            partition: applicationsByStatusPartition(options.status),
            ...paging,
          })
        : await table.query<StoredApplication>({ index: "gsi2", partition: applicationsPartition, ...paging });
      return { applications: page.items.map(toApplicationDto), cursor: page.cursor };
    },

    /** Claims the approval (pending → approved) before the account exists; undefined if already reviewed. */
    approve: (application: ApplicationRecord, assignedEventId: number, by: Review) =>
      review(application, "approved", { ...by, assignedEventId }),

    /** The account was created: remember which one. */
    async recordPhotographer(id: string, photographerUserId: string): Promise<void> {
      await table.update({
        key: keys.photographerApplication(id),
        set: { photographerUserId },
        conditions: [{ attribute: "status", op: "=", value: "approved" }],
      });
    },

    /**
     * Gives back a claimed approval whose account could not be created, so the admin can try again
     * (e.g. with another event); only the claim made at `reviewedAt` is given back.
     */
    async releaseApproval(application: ApplicationRecord, reviewedAt: string): Promise<void> {
      await table.update({
        key: keys.photographerApplication(application.id),
        set: {
          status: "pending",
          reviewedAt: null,
          reviewedBy: null,
          reviewedByEmail: null,
          assignedEventId: null,
          ...keys.applicationsByStatusIndex("pending", application.createdAt, application.id),
        },
        conditions: [
          { attribute: "status", op: "=", value: "approved" },
          { attribute: "reviewedAt", op: "=", value: reviewedAt },
        ],
      });
    },

    reject: (application: ApplicationRecord, adminNotes: string | null, by: Review) =>
      review(application, "rejected", { ...by, adminNotes }),
  };
}
export type ApplicationRepository = ReturnType<typeof createApplicationRepository>;
