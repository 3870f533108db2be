// First: every schema of the repo reports its problems in Spanish (zod-messages.ts).
import "./zod-messages";

export * from "./analytics";
export * from "./api";
export * from "./bib-format";
export { wearerOf, wearerRegion } from "./bib-geometry";
export * from "./bibs";
export * from "./constants";
// Not the route contract: every page loads this index, so every route would join /search's first
// load (issue 20). The server, infra and tests import it from "@dorsal/shared/contract", a screen
// only its groups ("@dorsal/shared/contract/<group>"); here only pathFor and the types apiCall is typed with.
export {
  type EndpointSpec,
  type FileAnswer,
  type HttpMethod,
  pathFor,
  type RequestOf,
  type ResponseOf,
} from "./contract/endpoint";
export * from "./mail";
export * from "./messages";
export * from "./participants";
export * from "./performance";
export * from "./preflight";
export * from "./pricing";
export * from "./roles";
export * from "./sales";
export * from "./start-list";
export * from "./start-list-csv";
export * from "./uploads";
// Not here, each a subpath of its own: every zod schema is built where its module loads, and
// through this index on every visitor's first load of /search, which never uses them (issue 20).
// "@dorsal/shared/applications": photographers' applications (their form and the admins' review);
// "@dorsal/shared/staff-requests": what sign-in, accounts and organizers send.
