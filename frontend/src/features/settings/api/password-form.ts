import { messages } from "@dorsal/shared";

export interface PasswordForm {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** Spec §5: the button waits for all three fields. */
export const isPasswordFormComplete = (form: PasswordForm): boolean =>
  form.currentPassword !== "" && form.newPassword !== "" && form.confirmPassword !== "";

/** Spec §5, in its order: the confirmation must match, then the length. Null when the form may be sent. */
export function passwordFormError(form: PasswordForm): string | null {
  if (form.newPassword !== form.confirmPassword) return "Las contraseñas no coinciden";
  if (form.newPassword.length < 6) return messages.passwordTooShort;
  return null;
}
