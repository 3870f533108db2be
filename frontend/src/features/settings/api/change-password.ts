import { type ChangePasswordRequest, messages } from "@dorsal/shared";
import { authApi } from "@dorsal/shared/contract/auth";
import { useMutation } from "@tanstack/react-query";
import { ApiError, apiCall } from "../../../lib/api-fetch";
import { session } from "../../../lib/session";

/**
 * The server ends every session issued before the change, this one included, and answers with a
 * fresh token: it replaces the stored one so the admin stays signed in.
 */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordRequest) => apiCall(authApi.changePassword, { body }),
    meta: {
      // A throttled attempt says when to try again; anything else gets the spec's text.
      errorMessage: (failure) =>
        failure instanceof ApiError && failure.status === 429 ? failure.message : messages.changePasswordFailed,
    },
    onSuccess: ({ token }) => {
      const user = session.get();
      if (user && token) session.save({ ...user, token });
    },
  });
}
