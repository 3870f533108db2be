import { messages } from "@dorsal/shared";
import {
  type ApplicationListInput,
  type ApprovedApplicationResponse,
  applicationMessages,
  type PhotographerApplicationCreated,
  type PhotographerApplicationInput,
  type PhotographerApplicationPage,
  type RejectedApplicationResponse,
} from "@dorsal/shared/applications";
import { mailTexts } from "@dorsal/shared/mail-texts";
import { type ApplicationRecord, toApplicationDto } from "../data/applications";
import type { Deps } from "./deps";
import { AppError, conflict, invalid, notFound } from "./errors";
import { sendMail } from "./mail";
import { decodeCursor, encodeCursor } from "./page-cursor";
import type { SessionClaims } from "./tokens";
import { createUser } from "./users";

/** Characters of a generated password: 96 random bits, readable enough to dictate over the phone. */
const generatedPasswordLength = 16;

/** 'Soy fotógrafo' (spec §2.7): anyone may apply; the application waits, pending, for an admin. */
export async function submitApplication(
  deps: Deps,
  input: PhotographerApplicationInput,
): Promise<PhotographerApplicationCreated> {
  const application = await deps.applications.create(deps.ids.newId(), input, deps.clock.now().toISOString());
  return { success: true, id: application.id, status: "pending" };
}

export async function listApplications(deps: Deps, query: ApplicationListInput): Promise<PhotographerApplicationPage> {
  const page = await deps.applications.list({
    status: query.status,
    limit: query.limit,
    cursor: decodeCursor(query.cursor),
  });
  return { applications: page.applications, cursor: encodeCursor(page.cursor) };
}

async function pendingApplication(deps: Deps, applicationId: string): Promise<ApplicationRecord> {
  const application = await deps.applications.get(applicationId);
  if (!application) throw notFound(applicationMessages.notFound);
  if (application.status !== "pending") throw conflict(applicationMessages.alreadyReviewed);
  return application;
}

const reviewBy = (deps: Deps, admin: SessionClaims) => ({
  reviewedAt: deps.clock.now().toISOString(),
  reviewedBy: admin.userId,
  reviewedByEmail: admin.email,
});

/**
 * Approves an application and creates the photographer's account (no transactions, so the order
 * matters):
 * 1. the event must exist and the email must not have an account yet (a clear 409 before anything
 *    changes);
 * 2. the application is claimed with a conditional write (pending → approved): of two approvals
 *    that race, only one goes on, so only one account can ever be created;
 * 3. the account is created with a generated password, assigned to the event;
 * 4. if that fails (the email was taken meanwhile, the event deleted), the claim is given back and
 *    the application is pending again;
 * 5. the password is returned in this response only; the table keeps its hash;
 * 6. the applicant is emailed the result, the event and where to sign in — not the password, which
 *    the admin hands over (an email is no place for it, and the local outbox keeps its files).
 * A crash between 2 and 3 leaves the application approved without an account
 * (`photographerUserId` null), which the list shows, and the account can be created by hand.
 */
export async function approveApplication(
  deps: Deps,
  admin: SessionClaims,
  applicationId: string,
  eventId: number,
): Promise<ApprovedApplicationResponse> {
  const application = await pendingApplication(deps, applicationId);
  const event = await deps.events.get(eventId);
  if (!event) throw invalid(messages.eventNotFound, [{ path: "eventId", message: messages.eventNotFound }]);
  if (await deps.users.findByEmail(application.email)) {
    throw conflict(applicationMessages.emailHasAccount(application.email));
  }

  const review = reviewBy(deps, admin);
  if (!(await deps.applications.approve(application, eventId, review))) {
    throw conflict(applicationMessages.alreadyReviewed);
  }

  const password = deps.ids.newToken().slice(0, generatedPasswordLength);
  let user: Awaited<ReturnType<typeof createUser>>;
  try {
    user = await createUser(
      deps,
      {
        email: application.email,
        password,
        name: application.fullName,
        role: "photographer",
        assignedEventId: eventId,
      },
      admin.userId,
    );
  } catch (error) {
    await deps.applications.releaseApproval(application, review.reviewedAt);
    if (error instanceof AppError && error.kind === "conflict") {
      throw conflict(applicationMessages.emailHasAccount(application.email));
    }
    throw error;
  }

  await deps.applications.recordPhotographer(application.id, user.id);
  const mail = await sendMail(
    deps,
    application.email,
    mailTexts.applicationApproved({
      fullName: application.fullName,
      email: user.email,
      eventName: event.name,
      loginUrl: `${deps.siteUrl}/photographer-login`,
    }),
    { purpose: "application-approved", applicationId: application.id },
  );
  return {
    application: toApplicationDto({
      ...application,
      ...review,
      status: "approved",
      assignedEventId: eventId,
      photographerUserId: user.id,
    }),
    credentials: {
      userId: user.id,
      name: application.fullName,
      email: user.email,
      password,
      assignedEventId: eventId,
      eventName: event.name,
    },
    mail,
  };
}

/**
 * Rejects a pending application, with the admin's notes (spec §3 adminNotes), which the applicant
 * is emailed with the result; a reviewed one cannot change again.
 */
export async function rejectApplication(
  deps: Deps,
  admin: SessionClaims,
  applicationId: string,
  adminNotes: string | null,
): Promise<RejectedApplicationResponse> {
  const application = await pendingApplication(deps, applicationId);
  const rejected = await deps.applications.reject(application, adminNotes, reviewBy(deps, admin));
  if (!rejected) throw conflict(applicationMessages.alreadyReviewed);
  const mail = await sendMail(
    deps,
    application.email,
    mailTexts.applicationRejected({ fullName: application.fullName, adminNotes }),
    { purpose: "application-rejected", applicationId: application.id },
  );
  return { ...toApplicationDto(rejected), mail };
}
