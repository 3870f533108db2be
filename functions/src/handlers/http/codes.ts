import { getContainer } from "../../compose";
import { createHttpHandler } from "../../http/handler";

// Placeholder while issue 6 is built: every route of this handler answers 404 until implemented.
export const handler = createHttpHandler({}, getContainer);
