import { Badge, Box, Button, Container, HStack, SkipNavContent, SkipNavLink, Text } from "@chakra-ui/react";
import { type ReactNode, Suspense } from "react";
import { PageSpinner } from "../../components/ui/page-spinner";
import { useLogout } from "../../lib/use-logout";
import { Brand } from "./brand";

/**
 * Spec §2.5: photographers get a reduced header, since the upload screen is all they can use. Its
 * 'Upload Photos' label is in Spanish, as everything else (issue 17).
 */
export function PhotographerLayout({ children }: { children: ReactNode }) {
  const logout = useLogout();
  return (
    <Box minH="100dvh">
      <SkipNavLink>Saltar al contenido</SkipNavLink>
      <Box as="header" bg="white" borderBottomWidth="1px">
        <Container maxW="5xl" py="2.5">
          <HStack justify="space-between" gap="3">
            <HStack gap="3">
              <Brand to="/upload" />
              <Badge colorPalette="purple" variant="surface">
                Fotógrafo
              </Badge>
            </HStack>
            <HStack gap="3">
              <Text textStyle="sm" color="fg.muted" hideBelow="sm">
                Subir fotos
              </Text>
              <Button size="sm" variant="outline" onClick={logout}>
                Salir
              </Button>
            </HStack>
          </HStack>
        </Container>
      </Box>
      <Container as="main" maxW="5xl" py={{ base: "5", md: "8" }}>
        <SkipNavContent />
        <Suspense fallback={<PageSpinner />}>{children}</Suspense>
      </Container>
    </Box>
  );
}
