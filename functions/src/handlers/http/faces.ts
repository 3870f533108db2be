import { api } from "@dorsal/shared/contract";
import { forgetFace, searchByFace } from "../../app/face-search";
import { getContainer } from "../../compose";
import { createHttpHandler } from "../../http/handler";

export const handler = createHttpHandler(
  api.faces,
  {
    search: ({ deps, form, client }) => searchByFace(deps, form, client),
    forget: ({ deps, form, client }) => forgetFace(deps, form, client),
  },
  getContainer,
);
