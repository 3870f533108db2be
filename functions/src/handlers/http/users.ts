import { createUserRequest } from "@dorsal/shared";
import { z } from "zod";
import { createUser, deleteUser, listUsers } from "../../app/users";
import { getContainer } from "../../compose";
import { createHttpHandler, reply, route } from "../../http/handler";

const userId = z.string().regex(/^[A-Za-z0-9_-]{6,64}$/);

export const handler = createHttpHandler(
  {
    "GET /api/users": route({ access: ["admin"], run: ({ deps }) => listUsers(deps) }),
    "POST /api/users": route({
      access: ["admin"],
      body: createUserRequest,
      run: async ({ deps, body }) => reply(201, { success: true, user: await createUser(deps, body) }),
    }),
    "DELETE /api/users/{id}": route({
      access: ["admin"],
      params: z.object({ id: userId }),
      run: ({ deps, params }) => deleteUser(deps, params.id),
    }),
  },
  getContainer,
);
