import { Button, Field, Input } from "@chakra-ui/react";

interface CredentialsFieldsProps {
  email: string;
  password: string;
  onEmailChange: (email: string) => void;
  onPasswordChange: (password: string) => void;
  pending: boolean;
}

/** Every sign-in form's email, password and button, named as password managers expect them. */
export function CredentialsFields({
  email,
  password,
  onEmailChange,
  onPasswordChange,
  pending,
}: CredentialsFieldsProps) {
  return (
    <>
      <Field.Root required>
        <Field.Label>Correo electrónico</Field.Label>
        <Input
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          onChange={(event) => onEmailChange(event.currentTarget.value)}
        />
      </Field.Root>
      <Field.Root required>
        <Field.Label>Contraseña</Field.Label>
        <Input
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => onPasswordChange(event.currentTarget.value)}
        />
      </Field.Root>
      <Button type="submit" colorPalette="blue" loading={pending} loadingText="Ingresando...">
        Ingresar
      </Button>
    </>
  );
}
