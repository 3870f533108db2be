import type { LoginRequest, LoginResponse } from "@dorsal/shared";
import { authApi } from "@dorsal/shared/contract/auth";
import { useMutation } from "@tanstack/react-query";
import { ApiError, apiCall, invalidResponseMessage } from "../../../lib/api-fetch";
import { type SessionUser, toSessionUser } from "../../../lib/session";

/**
 * The session a sign-in answer carries (login, athlete registration). An empty or malformed answer
 * is refused rather than trusted (a refusal itself arrives as an error status).
 */
export function sessionFrom(response: LoginResponse | undefined): SessionUser {
  if (!response?.success) throw new ApiError(invalidResponseMessage, 200);
  const user = toSessionUser({ ...response.user, token: response.token });
  if (!user) throw new ApiError(invalidResponseMessage, 200);
  return user;
}

export async function login(credentials: LoginRequest): Promise<SessionUser> {
  return sessionFrom(await apiCall(authApi.login, { body: credentials, anonymous: true }));
}

export function useLogin() {
  // The sign-in screens say why it failed above their fields.
  return useMutation({ mutationFn: login, meta: { errorToast: false } });
}
