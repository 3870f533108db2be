import { Alert, Button, Card, Field, Heading, Input, Stack, Text } from "@chakra-ui/react";
import { type FormEvent, useState } from "react";
import { toaster } from "../../../components/ui/toaster";
import { useChangePassword } from "../api/change-password";
import { isPasswordFormComplete, type PasswordForm, passwordFormError } from "../api/password-form";

const emptyForm: PasswordForm = { currentPassword: "", newPassword: "", confirmPassword: "" };

const fields = [
  { name: "currentPassword", label: "Contraseña actual", autoComplete: "current-password" },
  { name: "newPassword", label: "Nueva contraseña", autoComplete: "new-password" },
  { name: "confirmPassword", label: "Confirmar nueva contraseña", autoComplete: "new-password" },
] as const;

/** Spec §2.7 'Cambiar contraseña' with the rules of §5 and the messages of §8. */
export function ChangePasswordCard() {
  const [form, setForm] = useState(emptyForm);
  const [error, setError] = useState<string | null>(null);
  const change = useChangePassword();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const invalid = passwordFormError(form);
    setError(invalid);
    if (invalid) return;
    change.mutate(
      { currentPassword: form.currentPassword, newPassword: form.newPassword },
      {
        onSuccess: () => {
          setForm(emptyForm);
          toaster.create({ type: "success", title: "Contraseña cambiada" });
        },
      },
    );
  };

  return (
    <Card.Root as="section" aria-labelledby="change-password-title">
      <Card.Header>
        <Heading as="h2" size="lg" id="change-password-title">
          Cambiar contraseña
        </Heading>
        <Text color="fg.muted" textStyle="sm">
          Las sesiones abiertas en otros dispositivos se cerrarán.
        </Text>
      </Card.Header>
      <Card.Body>
        <form onSubmit={submit} noValidate>
          <Stack gap="4">
            {error && (
              <Alert.Root status="error">
                <Alert.Indicator />
                <Alert.Title>{error}</Alert.Title>
              </Alert.Root>
            )}
            {fields.map((field) => (
              <Field.Root key={field.name}>
                <Field.Label>{field.label}</Field.Label>
                <Input
                  type="password"
                  name={field.name}
                  autoComplete={field.autoComplete}
                  value={form[field.name]}
                  onChange={(event) => {
                    const value = event.currentTarget.value;
                    setForm((current) => ({ ...current, [field.name]: value }));
                    setError(null);
                  }}
                />
              </Field.Root>
            ))}
            <Button
              type="submit"
              colorPalette="blue"
              alignSelf="flex-start"
              disabled={!isPasswordFormComplete(form)}
              loading={change.isPending}
              loadingText="Cambiando..."
            >
              Cambiar contraseña
            </Button>
          </Stack>
        </form>
      </Card.Body>
    </Card.Root>
  );
}
