import { Box, HStack, Text } from "@chakra-ui/react";
import { Link as RouterLink } from "react-router";

export function Brand({ to = "/" }: { to?: string }) {
  return (
    <RouterLink to={to} aria-label="Dorsal, inicio">
      <HStack gap="2">
        {/* The bib mark is drawn, not written: as text it would be part of the link's visible
            label, which must then be part of its name 'Dorsal, inicio' (WCAG 2.5.3). */}
        <Box
          bg="blue.600"
          color="white"
          fontWeight="bold"
          fontSize="xs"
          px="1.5"
          py="0.5"
          borderRadius="sm"
          aria-hidden="true"
          _before={{ content: '"42"' }}
        />
        <Text fontWeight="bold" fontSize="lg" letterSpacing="tight">
          Dorsal
        </Text>
      </HStack>
    </RouterLink>
  );
}
