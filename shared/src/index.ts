// First: every schema of the repo reports its problems in Spanish (zod-messages.ts).
import "./zod-messages";

export * from "./analytics";
export * from "./api";
export * from "./applications";
export * from "./bib-format";
export { wearerRegion } from "./bib-geometry";
export * from "./bibs";
export * from "./constants";
export * from "./contract";
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
