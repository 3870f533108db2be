import { Box, Container, SkipNavContent, SkipNavLink } from "@chakra-ui/react";
import { Suspense } from "react";
import { Outlet } from "react-router";
import { PageSpinner } from "../../components/ui/page-spinner";
import { useLogout } from "../../lib/use-logout";
import { AdminHeader } from "./admin-header";

export function AdminLayout() {
  const logout = useLogout();
  return (
    <Box minH="100dvh">
      <SkipNavLink>Saltar al contenido</SkipNavLink>
      <AdminHeader onLogout={logout} />
      <Container as="main" maxW="7xl" py={{ base: "5", md: "8" }}>
        <SkipNavContent />
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </Container>
    </Box>
  );
}
