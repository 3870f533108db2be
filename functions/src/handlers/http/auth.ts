import { athleteRegisterRequest, changePasswordRequest, loginRequest, setUserPasswordRequest } from "@dorsal/shared";
import { z } from "zod";
import { registerAthlete } from "../../app/athletes";
import { changePassword, currentUser, login, setUserPassword } from "../../app/auth";
import { getContainer } from "../../compose";
import { createHttpHandler, deviceCookie, reply, route } from "../../http/handler";

/** Account ids as the ids port makes them (the same check as the users routes). */
const userId = z.string().regex(/^[A-Za-z0-9_-]{6,64}$/);

/** Everything that hashes or checks a password lives here, on the function sized for scrypt. */
export const handler = createHttpHandler(
  {
    "POST /api/auth/login": route({
      access: "public",
      body: loginRequest,
      run: async ({ deps, body, client, event }) => {
        const { deviceToken, ...signedIn } = await login(deps, body, client);
        return reply(200, { success: true, ...signedIn }, undefined, [deviceCookie(deviceToken, event)]);
      },
    }),
    "POST /api/auth/athlete-register": route({
      access: "public",
      body: athleteRegisterRequest,
      run: async ({ deps, body }) => reply(201, { success: true, ...(await registerAthlete(deps, body)) }),
    }),
    "GET /api/auth/me": route({
      access: ["admin", "photographer", "user", "athlete"],
      run: async ({ deps, session }) => ({ user: await currentUser(deps, session as NonNullable<typeof session>) }),
    }),
    "POST /api/admin/change-password": route({
      access: ["admin"],
      body: changePasswordRequest,
      run: ({ deps, session, body, client }) =>
        changePassword(deps, session as NonNullable<typeof session>, body, client),
    }),
    "PUT /api/users/{id}/password": route({
      access: ["admin"],
      params: z.object({ id: userId }),
      body: setUserPasswordRequest,
      run: ({ deps, session, params, body }) =>
        setUserPassword(deps, session as NonNullable<typeof session>, params.id, body.newPassword),
    }),
  },
  getContainer,
);
