import { describe, expect, it } from "vitest";
import { isPasswordFormComplete, passwordFormError } from "./password-form";

const form = { currentPassword: "actual", newPassword: "nueva-1", confirmPassword: "nueva-1" };

describe("change password form", () => {
  it("is complete only when all three fields are filled", () => {
    expect(isPasswordFormComplete(form)).toBe(true);
    expect(isPasswordFormComplete({ ...form, currentPassword: "" })).toBe(false);
    expect(isPasswordFormComplete({ ...form, newPassword: "" })).toBe(false);
    expect(isPasswordFormComplete({ ...form, confirmPassword: "" })).toBe(false);
  });

  it("checks the confirmation first, then the minimum length", () => {
    expect(passwordFormError(form)).toBeNull();
    expect(passwordFormError({ ...form, confirmPassword: "otra-1" })).toBe("Las contraseñas no coinciden");
    expect(passwordFormError({ ...form, newPassword: "12345", confirmPassword: "12345" })).toBe(
      "La contraseña debe tener al menos 6 caracteres",
    );
    expect(passwordFormError({ ...form, newPassword: "123456", confirmPassword: "123456" })).toBeNull();
  });
});
