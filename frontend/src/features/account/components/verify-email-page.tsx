import { Button, Heading, Spinner, Text, VStack } from "@chakra-ui/react";
import { useEffect, useRef } from "react";
import { Link as RouterLink, useSearchParams } from "react-router";
import { useSession } from "../../../lib/session";
import { useVerifyEmail } from "../api/account";

/**
 * The verification email's link (`/verify-email?token=`): it verifies on opening, signed in or not
 * (people open email on another device), then says what it did and where to go.
 */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const user = useSession();
  const verify = useVerifyEmail();
  const { mutate } = verify;
  // Once per token: the link is single-use, and a second call (React's development double effect) would be refused.
  const sent = useRef("");
  useEffect(() => {
    if (!token || sent.current === token) return;
    sent.current = token;
    mutate(token);
  }, [token, mutate]);

  const hasAccountScreen = user?.role === "user" || user?.role === "athlete";
  return (
    <VStack as="section" gap="4" py={{ base: "8", md: "16" }} textAlign="center" aria-labelledby="verify-email">
      <Heading as="h1" id="verify-email" size="2xl">
        Verificar correo
      </Heading>
      {verify.isSuccess ? (
        <Text role="status">Listo: tu correo está verificado. En Tu cuenta verás tus compras y tus códigos.</Text>
      ) : verify.isError || !token ? (
        <Text role="alert" color="red.700" maxW="md">
          {verify.error?.message ?? "Este enlace no tiene el código de verificación."}
        </Text>
      ) : (
        <Spinner aria-label="Verificando tu correo" />
      )}
      <Button asChild variant={verify.isSuccess ? "solid" : "outline"}>
        {hasAccountScreen ? (
          <RouterLink to="/account">Ir a Tu cuenta</RouterLink>
        ) : (
          <RouterLink to="/athlete-login">Iniciar sesión</RouterLink>
        )}
      </Button>
    </VStack>
  );
}
