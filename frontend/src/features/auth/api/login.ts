import type { LoginRequest, LoginResponse } from "@dorsal/shared";
import { useMutation } from "@tanstack/react-query";
import { ApiError, apiFetch, invalidResponseMessage } from "../../../lib/api-fetch";
import { type SessionUser, toSessionUser } from "../../../lib/session";

/** The session a sign-in answer carries (login, athlete registration), or the reason it carries none. */
export function sessionFrom(response: LoginResponse | undefined): SessionUser {
  if (!response?.success) throw new ApiError(response?.error || invalidResponseMessage, 200);
  const user = toSessionUser({ ...response.user, token: response.token });
  if (!user) throw new ApiError(invalidResponseMessage, 200);
  return user;
}

export async function login(credentials: LoginRequest): Promise<SessionUser> {
  return sessionFrom(
    await apiFetch<LoginResponse>("/api/auth/login", { method: "POST", body: credentials, anonymous: true }),
  );
}

export function useLogin() {
  // The sign-in screens say why it failed above their fields.
  return useMutation({ mutationFn: login, meta: { errorToast: false } });
}
