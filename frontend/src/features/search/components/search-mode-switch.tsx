import { Badge, Button, Card, HStack, Text } from "@chakra-ui/react";
import type { SearchMode } from "@dorsal/shared";

/**
 * Spec §2.6's admin search panel: in admin mode the admin sees every photo clean, without buying;
 * in participant mode, the search exactly as an athlete sees it (prices, cart, codes).
 */
export function SearchModeSwitch({ mode, onChange }: { mode: SearchMode; onChange: (mode: SearchMode) => void }) {
  const choices: { value: SearchMode; label: string }[] = [
    { value: "admin", label: "Administrador" },
    { value: "participant", label: "Participante" },
  ];
  return (
    <Card.Root variant="subtle">
      <Card.Body gap="2">
        <HStack justify="space-between" wrap="wrap" gap="3">
          <Badge colorPalette={mode === "admin" ? "purple" : "gray"} size="lg">
            {mode === "admin" ? "Administrador" : "Participante"}
          </Badge>
          <HStack role="group" aria-label="Ver la búsqueda como" gap="2">
            {choices.map((choice) => (
              <Button
                key={choice.value}
                size="sm"
                variant={mode === choice.value ? "solid" : "outline"}
                colorPalette="purple"
                aria-pressed={mode === choice.value}
                onClick={() => onChange(choice.value)}
              >
                {choice.label}
              </Button>
            ))}
          </HStack>
        </HStack>
        <Text textStyle="sm" color="fg.muted">
          {mode === "admin"
            ? "Ves todas las fotos sin marca de agua y sin comprarlas."
            : "Ves la búsqueda como un participante: con marca de agua, precios y carrito."}
        </Text>
      </Card.Body>
    </Card.Root>
  );
}
