import { Badge, Button, Heading, HStack, Text, VStack } from "@chakra-ui/react";
import { Link as RouterLink } from "react-router";

/**
 * Placeholder for routes of spec §2 whose screens are not built yet: it says so plainly instead
 * of showing invented content.
 */
export function ComingSoon({ title, backTo = "/" }: { title: string; backTo?: string }) {
  return (
    <VStack as="section" gap="4" py={{ base: "12", md: "20" }} px="4" textAlign="center" aria-labelledby="coming-soon">
      <Badge colorPalette="orange" size="lg">
        Próximamente
      </Badge>
      <Heading as="h1" id="coming-soon" size="2xl">
        {title}
      </Heading>
      <Text color="fg.muted" maxW="md">
        Esta sección todavía no está disponible. Estamos trabajando en ella.
      </Text>
      <HStack gap="3">
        <Button asChild variant="outline">
          <RouterLink to={backTo}>Volver</RouterLink>
        </Button>
      </HStack>
    </VStack>
  );
}
