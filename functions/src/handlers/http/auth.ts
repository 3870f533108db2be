import { loginRequest } from "@dorsal/shared";
import { currentUser, login } from "../../app/auth";
import { getContainer } from "../../compose";
import { createHttpHandler, route } from "../../http/handler";

export const handler = createHttpHandler(
  {
    "POST /api/auth/login": route({
      access: "public",
      body: loginRequest,
      run: async ({ deps, body }) => ({ success: true, ...(await login(deps, body)) }),
    }),
    "GET /api/auth/me": route({
      access: ["admin", "photographer", "user", "athlete"],
      run: async ({ deps, session }) => ({ user: await currentUser(deps, session as NonNullable<typeof session>) }),
    }),
  },
  getContainer,
);
