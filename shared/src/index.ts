export * from "./api";
export * from "./applications";
export * from "./bibs";
export * from "./constants";
export * from "./messages";
export * from "./pricing";
export * from "./roles";
export * from "./sales";
