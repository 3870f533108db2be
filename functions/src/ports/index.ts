export type * from "./clock";
export type * from "./ids";
export type * from "./object-store";
export type * from "./pipeline";
export type * from "./preflight";
export type * from "./table";
export type * from "./url-signer";
export type * from "./vision";
