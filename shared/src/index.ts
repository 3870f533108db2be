export * from "./api";
export * from "./bibs";
export * from "./constants";
export * from "./messages";
export * from "./roles";
