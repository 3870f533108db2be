import { z } from "zod";
import { type LoginResponse, type PasswordChangedResponse, type PublicUser, userIdParam } from "../api";
import { athleteRegisterRequest } from "../sales";
import { changePasswordRequest, loginRequest, setUserPasswordRequest } from "../staff-requests";
import { accountAuthApi } from "./account";
import { endpoint } from "./endpoint";

/** Everything that hashes or checks a password lives here, on the function sized for scrypt (the `auth` function). */
export const authApi = {
  login: endpoint<LoginResponse>()({ method: "POST", path: "/api/auth/login", access: "public", body: loginRequest }),
  athleteRegister: endpoint<LoginResponse>()({
    method: "POST",
    path: "/api/auth/athlete-register",
    access: "public",
    body: athleteRegisterRequest,
  }),
  me: endpoint<{ user: PublicUser }>()({
    method: "GET",
    path: "/api/auth/me",
    access: ["admin", "photographer", "user", "athlete"],
  }),
  changePassword: endpoint<PasswordChangedResponse>()({
    method: "POST",
    path: "/api/admin/change-password",
    access: ["admin"],
    body: changePasswordRequest,
  }),
  setUserPassword: endpoint<PasswordChangedResponse>()({
    method: "PUT",
    path: "/api/users/{id}/password",
    access: ["admin"],
    params: z.object({ id: userIdParam }),
    body: setUserPasswordRequest,
  }),
  ...accountAuthApi,
};
