import { type athleteRegisterRequest, messages, type PublicUser, salesMessages } from "@dorsal/shared";
import type { z } from "zod";
import { passwordVersionOf } from "../data/credentials";
import type { EventRecord } from "../data/events";
import { toPublicUser } from "../data/users";
import { sendVerificationEmail } from "./account";
import type { Deps } from "./deps";
import { conflict, forbidden, notFound } from "./errors";
import { signedOriginalUrl } from "./original-download";
import { hashPassword } from "./passwords";
import type { SessionClaims } from "./tokens";

type RegisterInput = z.output<typeof athleteRegisterRequest>;

/**
 * 'Crear cuenta' on /athlete-login: an account with role athlete, signed in at once. The email is
 * claimed with a conditional write, so two sign-ups with one email make one account; the address
 * gets the link that verifies it.
 */
export async function registerAthlete(deps: Deps, input: RegisterInput): Promise<{ token: string; user: PublicUser }> {
  const user = await deps.users.create({
    email: input.email,
    passwordHash: await hashPassword(input.password),
    role: "athlete",
    name: input.name,
    assignedEventId: null,
  });
  if (!user) throw conflict(messages.emailTaken);
  // Until its owner opens this email's link, 'Tu cuenta' lists nothing bought with the address.
  await sendVerificationEmail(deps, user);
  const token = await deps.tokens.issue({
    userId: user.id,
    email: user.email,
    role: user.role,
    passwordVersion: passwordVersionOf(user),
  });
  return { token, user: toPublicUser(user) };
}

/**
 * Spec §1 promises signed-in athletes every photo of an event free; here that is an explicit
 * per-event option (`requiresAthleteLogin`, off by default): only then does an athlete's session
 * open the clean copies and the originals.
 */
export const athleteSeesClean = (
  event: Pick<EventRecord, "requiresAthleteLogin">,
  session: SessionClaims | undefined,
) => event.requiresAthleteLogin && session?.role === "athlete";

/** GET /api/athlete/photos/{photoId}/download: an athlete's free download of an original. */
export async function athleteDownload(
  deps: Deps,
  session: SessionClaims | undefined,
  photoId: string,
): Promise<string> {
  if (session?.role !== "athlete") throw forbidden(salesMessages.athleteOnly);
  const photo = await deps.photos.get(photoId);
  if (photo?.processingStatus !== "successful") throw notFound(messages.notFound);
  const event = await deps.events.get(photo.eventId);
  if (!event?.requiresAthleteLogin) throw forbidden(salesMessages.eventNeedsAthleteLogin);
  return signedOriginalUrl(deps, photo);
}
