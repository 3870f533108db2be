import { Box, Button, HStack } from "@chakra-ui/react";
import { Link as RouterLink } from "react-router";
import { EmptyState } from "../components/ui/empty-state";
import { SearchIcon } from "../components/ui/icons";

/**
 * A mistyped or outdated address (issue 17: it used to send the visitor home without a word). The
 * address stays in the bar, so the visitor can see and fix it; the links lead where they can go.
 */
export function NotFoundPage({ links }: { links: { to: string; label: string }[] }) {
  return (
    <Box py={{ base: "6", md: "12" }}>
      <EmptyState
        titleAs="h1"
        icon={<SearchIcon />}
        title="Página no encontrada"
        description="La dirección que abriste no existe o cambió. Revísala o sigue desde aquí."
        action={
          <HStack gap="3" wrap="wrap" justify="center">
            {links.map((link, index) => (
              <Button key={link.to} asChild colorPalette="blue" variant={index === 0 ? "solid" : "outline"}>
                <RouterLink to={link.to}>{link.label}</RouterLink>
              </Button>
            ))}
          </HStack>
        }
      />
    </Box>
  );
}
