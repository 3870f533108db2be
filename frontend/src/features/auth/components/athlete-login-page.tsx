import { Alert, Box, Button, Card, Field, Heading, Input, Stack, Tabs, Text } from "@chakra-ui/react";
import { athleteRegisterRequest } from "@dorsal/shared";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { firstErrorByField } from "../../../lib/field-errors";
import { type SessionUser, session } from "../../../lib/session";
import { athleteAuthFailure, athleteAuthMessages, useRegisterAthlete } from "../api/athlete-auth";
import { useLogin } from "../api/login";
import { safeReturnTo } from "../api/return-to";
import { CredentialsFields } from "./credentials-fields";

/** Spec §2.2: navigation waits 100 ms after the session is stored. */
const navigationDelayMs = 100;

type RegisterField = "name" | "email" | "password";

function ErrorAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert.Root status="error">
      <Alert.Indicator />
      <Alert.Title>{message}</Alert.Title>
    </Alert.Root>
  );
}

function SignInForm({ onSignedIn }: { onSignedIn: (user: SessionUser) => void }) {
  const login = useLogin();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    login.mutate(
      { email: email.trim(), password },
      {
        onSuccess: (user) => {
          // Other roles have their own login and their own screens; an athlete session is what this page promises.
          if (user.role !== "athlete") setError(athleteAuthMessages.notAthlete);
          else onSignedIn(user);
        },
        onError: (failure) => setError(athleteAuthFailure(failure)),
      },
    );
  };

  return (
    <form onSubmit={submit} aria-label="Ingresar como deportista">
      <Stack gap="4">
        <ErrorAlert message={error} />
        <CredentialsFields
          email={email}
          password={password}
          onEmailChange={setEmail}
          onPasswordChange={setPassword}
          pending={login.isPending}
        />
      </Stack>
    </form>
  );
}

function RegisterForm({ onSignedIn }: { onSignedIn: (user: SessionUser) => void }) {
  const register = useRegisterAthlete();
  const [form, setForm] = useState<Record<RegisterField, string>>({ name: "", email: "", password: "" });
  const [errors, setErrors] = useState<Partial<Record<RegisterField, string>>>({});
  const [error, setError] = useState<string | null>(null);

  const update = (field: RegisterField) => (change: { currentTarget: { value: string } }) => {
    const { value } = change.currentTarget;
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    const parsed = athleteRegisterRequest.safeParse(form);
    if (!parsed.success) {
      setErrors(firstErrorByField<RegisterField>(parsed.error.issues));
      return;
    }
    register.mutate(parsed.data, {
      onSuccess: onSignedIn,
      onError: (failure) => setError(athleteAuthFailure(failure)),
    });
  };

  const field = (name: RegisterField, label: string, input: { type?: string; autoComplete: string }) => (
    <Field.Root required invalid={Boolean(errors[name])}>
      <Field.Label>{label}</Field.Label>
      <Input type={input.type} autoComplete={input.autoComplete} value={form[name]} onChange={update(name)} />
      <Field.ErrorText>{errors[name]}</Field.ErrorText>
    </Field.Root>
  );

  return (
    <form onSubmit={submit} noValidate aria-label="Crear cuenta de deportista">
      <Stack gap="4">
        <ErrorAlert message={error} />
        {field("name", "Nombre completo", { autoComplete: "name" })}
        {field("email", "Correo electrónico", { type: "email", autoComplete: "email" })}
        {field("password", "Contraseña", { type: "password", autoComplete: "new-password" })}
        <Button type="submit" colorPalette="blue" loading={register.isPending} loadingText="Creando cuenta...">
          Crear cuenta
        </Button>
      </Stack>
    </form>
  );
}

/** /athlete-login (spec §2.2): athletes sign in or create an account, then go back where they came from. */
export function AthleteLoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const destination = safeReturnTo(params.get("returnTo"));
  const navigationTimer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(navigationTimer.current), []);

  const signedIn = (user: SessionUser) => {
    session.save(user);
    navigationTimer.current = window.setTimeout(() => navigate(destination, { replace: true }), navigationDelayMs);
  };

  return (
    <Box display="flex" justifyContent="center" py={{ base: "2", md: "6" }}>
      <Card.Root width="full" maxW="md">
        <Card.Header>
          <Heading as="h1" size="xl">
            Acceso deportistas
          </Heading>
          <Text color="fg.muted">
            En los eventos con Acceso deportistas, al ingresar con tu cuenta ves y descargas gratis todas tus fotos.
          </Text>
        </Card.Header>
        <Card.Body>
          <Tabs.Root defaultValue="sign-in" variant="enclosed" fitted lazyMount unmountOnExit>
            <Tabs.List mb="4">
              <Tabs.Trigger value="sign-in">Ingresar</Tabs.Trigger>
              <Tabs.Trigger value="register">Crear cuenta</Tabs.Trigger>
            </Tabs.List>
            <Tabs.Content value="sign-in">
              <SignInForm onSignedIn={signedIn} />
            </Tabs.Content>
            <Tabs.Content value="register">
              <RegisterForm onSignedIn={signedIn} />
            </Tabs.Content>
          </Tabs.Root>
        </Card.Body>
      </Card.Root>
    </Box>
  );
}
