import { Box, HStack, Text } from "@chakra-ui/react";
import { Link as RouterLink } from "react-router";

export function Brand({ to = "/" }: { to?: string }) {
  return (
    <RouterLink to={to} aria-label="Dorsal, inicio">
      <HStack gap="2">
        <Box
          bg="blue.600"
          color="white"
          fontWeight="bold"
          fontSize="xs"
          px="1.5"
          py="0.5"
          borderRadius="sm"
          aria-hidden="true"
        >
          42
        </Box>
        <Text fontWeight="bold" fontSize="lg" letterSpacing="tight">
          Dorsal
        </Text>
      </HStack>
    </RouterLink>
  );
}
