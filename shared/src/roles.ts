export const roles = ["admin", "photographer", "user", "athlete"] as const;
export type Role = (typeof roles)[number];
