import { Badge, Box, Button, Container, HStack, IconButton, Stack } from "@chakra-ui/react";
import { useEffect, useState } from "react";
import { Link as RouterLink, useLocation } from "react-router";
import { CloseIcon, MenuIcon } from "../../components/ui/icons";
import { Brand } from "./brand";

/**
 * Spec §2.3 in this order, with the labels in Spanish (issue 17: 'Dashboard', 'Stats',
 * 'Performance', 'Config' were English). The failed-photo list (/processing), which the spec has
 * no screen for, is reached from the dashboard's processing card and the performance screen; the
 * preflight (/preflight), not in the spec's header either, from the dashboard.
 */
export const adminNavigation = [
  { label: "Panel", path: "/dashboard" },
  { label: "Eventos", path: "/events" },
  { label: "Subir", path: "/upload" },
  { label: "Buscar", path: "/search" },
  { label: "Estadísticas", path: "/analytics" },
  { label: "Códigos", path: "/admin-download-codes" },
  { label: "Rendimiento", path: "/performance-dashboard" },
  { label: "Precios", path: "/event-pricing" },
  { label: "Usuarios", path: "/user-management" },
  { label: "Configuración", path: "/settings" },
] as const;

/** Routes that show the same screen as a navigation entry light that entry up too. */
const aliases: Record<string, string> = {
  "/": "/dashboard",
  "/bulk-upload": "/upload",
};

/** 'Nuevo Evento': the events screen, asked to open its creation form. */
const newEventPath = "/events?new=1";

function NavItem({
  label,
  path,
  active,
  onChoose,
}: {
  label: string;
  path: string;
  active: boolean;
  onChoose?: () => void;
}) {
  return (
    <Button
      asChild
      size="sm"
      variant={active ? "subtle" : "ghost"}
      colorPalette={active ? "blue" : "gray"}
      justifyContent={{ base: "flex-start", xl: "center" }}
      onClick={onChoose}
    >
      <RouterLink to={path} aria-current={active ? "page" : undefined}>
        {label}
      </RouterLink>
    </Button>
  );
}

export function AdminHeader({ onLogout }: { onLogout?: () => void }) {
  const { pathname } = useLocation();
  // The menu belongs to the screen it was opened on: any change of path (an item, back/forward, a
  // link inside the page) closes it without an effect to keep in sync.
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const menuOpen = menuOpenOn === pathname;
  const setMenuOpen = (open: boolean) => setMenuOpenOn(open ? pathname : null);
  useEffect(() => {
    if (!menuOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === "Escape") setMenuOpenOn(null);
    };
    window.addEventListener("keydown", closeOnEscape);
    return () => window.removeEventListener("keydown", closeOnEscape);
  }, [menuOpen]);
  // A screen under a section (an event's bib review under /events) lights that section up.
  const current =
    aliases[pathname] ??
    adminNavigation.find((item) => pathname === item.path || pathname.startsWith(`${item.path}/`))?.path ??
    pathname;

  return (
    <Box as="header" bg="white" borderBottomWidth="1px" position="sticky" top="0" zIndex="sticky">
      <Container maxW="7xl" py="2.5">
        <HStack justify="space-between" gap="3">
          <HStack gap="3">
            <Brand to="/dashboard" />
            <Badge colorPalette="blue" variant="surface" hideBelow="xl">
              Admin
            </Badge>
          </HStack>
          <HStack as="nav" aria-label="Administración" gap="0.5" hideBelow="xl">
            {adminNavigation.map((item) => (
              <NavItem key={item.path} {...item} active={current === item.path} />
            ))}
          </HStack>
          <HStack gap="2">
            <Button asChild size="sm" colorPalette="blue" hideBelow="xl">
              <RouterLink to={newEventPath}>Nuevo</RouterLink>
            </Button>
            {onLogout && (
              <Button size="sm" variant="outline" onClick={onLogout} hideBelow="xl">
                Salir
              </Button>
            )}
            <IconButton
              hideFrom="xl"
              variant="ghost"
              aria-label={menuOpen ? "Cerrar menú" : "Abrir menú"}
              aria-expanded={menuOpen}
              aria-controls="admin-mobile-menu"
              onClick={() => setMenuOpen(!menuOpen)}
            >
              {menuOpen ? <CloseIcon /> : <MenuIcon />}
            </IconButton>
          </HStack>
        </HStack>
      </Container>
      {menuOpen && (
        <Box id="admin-mobile-menu" hideFrom="xl" borderTopWidth="1px" bg="white" shadow="md">
          <Container maxW="7xl" py="3">
            <Badge colorPalette="blue" variant="surface" mb="2">
              Organizador Admin
            </Badge>
            <Stack as="nav" aria-label="Administración" gap="1">
              {adminNavigation.map((item) => (
                <NavItem key={item.path} {...item} active={current === item.path} onChoose={() => setMenuOpen(false)} />
              ))}
            </Stack>
            <HStack mt="3" gap="2">
              <Button asChild size="sm" colorPalette="blue" flex="1" onClick={() => setMenuOpen(false)}>
                <RouterLink to={newEventPath}>Nuevo Evento</RouterLink>
              </Button>
              {onLogout && (
                <Button size="sm" variant="outline" flex="1" onClick={onLogout}>
                  Salir
                </Button>
              )}
            </HStack>
          </Container>
        </Box>
      )}
    </Box>
  );
}
