import { Box, Button, Container, HStack, Link, SkipNavContent, SkipNavLink, Text } from "@chakra-ui/react";
import { Outlet, Link as RouterLink } from "react-router";
import { useSession } from "../../lib/session";
import { Brand } from "./brand";

export function PublicLayout() {
  const role = useSession()?.role;
  return (
    <Box minH="100dvh" display="flex" flexDirection="column">
      <SkipNavLink>Saltar al contenido</SkipNavLink>
      <Box as="header" bg="white" borderBottomWidth="1px">
        <Container maxW="6xl" py="3">
          <HStack justify="space-between" gap="4">
            <Brand />
            <HStack as="nav" aria-label="Principal" gap={{ base: "1", sm: "2" }}>
              <Button asChild variant="ghost" size="sm">
                <RouterLink to="/search">Buscar fotos</RouterLink>
              </Button>
              <Button asChild variant="ghost" size="sm" hideBelow="sm">
                <RouterLink to="/free-photos">Fotos gratis</RouterLink>
              </Button>
              {(role === "athlete" || role === "user") && (
                <Button asChild variant="ghost" size="sm">
                  <RouterLink to="/account">Tu cuenta</RouterLink>
                </Button>
              )}
            </HStack>
          </HStack>
        </Container>
      </Box>
      <Box as="main" flex="1">
        <SkipNavContent />
        <Outlet />
      </Box>
      <Box as="footer" borderTopWidth="1px" bg="white" py="6">
        <Container maxW="6xl">
          <HStack justify="space-between" wrap="wrap" gap="3" textStyle="sm" color="fg.muted">
            <Text>Dorsal · Fotos de carrera por número de dorsal</Text>
            <HStack gap="4">
              <Link asChild>
                <RouterLink to="/soy-fotografo">Soy fotógrafo</RouterLink>
              </Link>
              <Link asChild>
                <RouterLink to="/photographer-login">Fotógrafos</RouterLink>
              </Link>
              <Link asChild>
                <RouterLink to="/admin-login">Organizadores</RouterLink>
              </Link>
            </HStack>
          </HStack>
        </Container>
      </Box>
    </Box>
  );
}

/** Padding for public pages other than the landing page, which draws its own full-width hero. */
export function PublicPage() {
  return (
    <Container maxW="6xl" py={{ base: "6", md: "10" }}>
      <Outlet />
    </Container>
  );
}
