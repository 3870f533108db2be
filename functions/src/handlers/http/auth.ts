import { api } from "@dorsal/shared/contract";
import { resendVerification, verifyEmail } from "../../app/account";
import { registerAthlete } from "../../app/athletes";
import { changePassword, currentUser, login, setUserPassword } from "../../app/auth";
import { getContainer } from "../../compose";
import { createHttpHandler, deviceCookie, reply } from "../../http/handler";

/** Everything that hashes or checks a password lives here, on the function sized for scrypt. */
export const handler = createHttpHandler(
  api.auth,
  {
    login: async ({ deps, body, client, event }) => {
      const { deviceToken, ...signedIn } = await login(deps, body, client);
      return reply(200, { success: true, ...signedIn }, undefined, [deviceCookie(deviceToken, event)]);
    },
    athleteRegister: async ({ deps, body }) => reply(201, { success: true, ...(await registerAthlete(deps, body)) }),
    me: async ({ deps, session }) => ({ user: await currentUser(deps, session) }),
    changePassword: ({ deps, session, body, client }) => changePassword(deps, session, body, client),
    setUserPassword: ({ deps, session, params, body }) => setUserPassword(deps, session, params.id, body.newPassword),
    sendVerification: ({ deps, session }) => resendVerification(deps, session),
    verifyEmail: ({ deps, body }) => verifyEmail(deps, body.token),
  },
  getContainer,
);
