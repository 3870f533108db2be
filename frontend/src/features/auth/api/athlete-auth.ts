import type { AthleteRegisterRequest } from "@dorsal/shared";
import { authApi } from "@dorsal/shared/contract/auth";
import { useMutation } from "@tanstack/react-query";
import { ApiError, apiCall, NetworkError } from "../../../lib/api-fetch";
import type { SessionUser } from "../../../lib/session";
import { sessionFrom } from "./login";

/** A new athlete account answers like a login: the athlete is signed in at once. */
export async function registerAthlete(request: AthleteRegisterRequest): Promise<SessionUser> {
  return sessionFrom(await apiCall(authApi.athleteRegister, { body: request, anonymous: true }));
}

export function useRegisterAthlete() {
  // The form says why it failed above its fields.
  return useMutation({ mutationFn: registerAthlete, meta: { errorToast: false } });
}

export const athleteAuthMessages = {
  badCredentials: "Credenciales inválidas",
  failed: "Error de autenticación",
  network: "Error de conexión. Inténtalo de nuevo.",
  notAthlete: "Esta cuenta no es de deportista: ingresa desde el acceso de tu rol.",
} as const;

/**
 * Spec §8: wrong credentials, a reason the server gave (an email already registered), or the
 * athletes' generic 'Error de autenticación' when the server failed without one.
 */
export function athleteAuthFailure(failure: unknown): string {
  if (failure instanceof NetworkError) return athleteAuthMessages.network;
  if (!(failure instanceof ApiError) || failure.status >= 500) return athleteAuthMessages.failed;
  if (failure.status === 401) return athleteAuthMessages.badCredentials;
  return failure.message;
}
