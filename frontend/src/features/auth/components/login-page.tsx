import { Alert, Box, Card, Heading, Link, Stack, Text } from "@chakra-ui/react";
import type { Role } from "@dorsal/shared";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Link as RouterLink, useNavigate } from "react-router";
import { NetworkError } from "../../../lib/api-fetch";
import { session } from "../../../lib/session";
import { useLogin } from "../api/login";
import { CredentialsFields } from "./credentials-fields";

interface LoginPageProps {
  requiredRole: Extract<Role, "admin" | "photographer">;
}

const variants = {
  admin: {
    title: "Acceso Administrador",
    subtitle: "Ingresa con tu cuenta de organizador",
    path: "/admin-login",
    destination: "/dashboard",
    wrongRole: "Solo administradores pueden acceder a esta página",
  },
  photographer: {
    title: "Acceso Fotógrafos",
    subtitle: "Ingresa para subir las fotos de tu evento",
    path: "/photographer-login",
    destination: "/upload",
    wrongRole: "Solo fotógrafos pueden acceder a esta página",
  },
} as const;

/** Spec §2.2: navigation waits 100 ms after the session is stored. */
const navigationDelayMs = 100;

export function LoginPage({ requiredRole }: LoginPageProps) {
  const variant = variants[requiredRole];
  const navigate = useNavigate();
  const login = useLogin();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  // Read once: the notice is about how the visitor got here, not about later attempts.
  const [expired] = useState(() => session.expiredLoginPath() === variant.path);
  const navigationTimer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(navigationTimer.current), []);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    login.mutate(
      { email: email.trim(), password },
      {
        onSuccess: (user) => {
          if (user.role !== requiredRole) {
            setError(variant.wrongRole);
            return;
          }
          session.save(user);
          navigationTimer.current = window.setTimeout(
            () => navigate(variant.destination, { replace: true }),
            navigationDelayMs,
          );
        },
        onError: (failure) => {
          setError(failure instanceof NetworkError ? "Error de conexión. Inténtalo de nuevo." : failure.message);
        },
      },
    );
  };

  return (
    <Box display="flex" justifyContent="center" px="4" py={{ base: "8", md: "16" }}>
      <Card.Root width="full" maxW="md">
        <Card.Header>
          <Heading as="h1" size="xl">
            {variant.title}
          </Heading>
          <Text color="fg.muted">{variant.subtitle}</Text>
        </Card.Header>
        <Card.Body>
          <form onSubmit={submit}>
            <Stack gap="4">
              {error ? (
                <Alert.Root status="error">
                  <Alert.Indicator />
                  <Alert.Title>{error}</Alert.Title>
                </Alert.Root>
              ) : (
                expired && (
                  <Alert.Root status="info">
                    <Alert.Indicator />
                    <Alert.Title>Tu sesión terminó. Ingresa de nuevo para continuar.</Alert.Title>
                  </Alert.Root>
                )
              )}
              <CredentialsFields
                email={email}
                password={password}
                onEmailChange={setEmail}
                onPasswordChange={setPassword}
                pending={login.isPending}
              />
            </Stack>
          </form>
        </Card.Body>
        {requiredRole === "photographer" && (
          <Card.Footer>
            <Text textStyle="sm" color="fg.muted">
              ¿Aún no tienes cuenta?{" "}
              <Link asChild colorPalette="blue" variant="underline">
                <RouterLink to="/soy-fotografo">Aplica como fotógrafo</RouterLink>
              </Link>
            </Text>
          </Card.Footer>
        )}
      </Card.Root>
    </Box>
  );
}
