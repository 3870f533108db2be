import type { ChangePasswordRequest, PasswordChangedResponse } from "@dorsal/shared";
import { useMutation } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-fetch";
import { session } from "../../../lib/session";

export function changePassword(body: ChangePasswordRequest): Promise<PasswordChangedResponse> {
  return apiFetch<PasswordChangedResponse>("/api/admin/change-password", { method: "POST", body });
}

/**
 * The server ends every session issued before the change, this one included, and answers with a
 * fresh token: it replaces the stored one so the admin stays signed in.
 */
export function useChangePassword() {
  return useMutation({
    mutationFn: changePassword,
    onSuccess: ({ token }) => {
      const user = session.get();
      if (user && token) session.save({ ...user, token });
    },
  });
}
