import { Box, Button, HStack, Stack, Text } from "@chakra-ui/react";
import type { BibSuggestionDto } from "@dorsal/shared";

interface BibSuggestionsProps {
  suggestions: BibSuggestionDto[];
  /** The suggestion being settled right now: its buttons wait for the server. */
  busyRead: string | undefined;
  onAccept: (read: string, dorsalNumber: string) => void;
  onDismiss: (read: string) => void;
}

/**
 * Reads the start list does not have: not published, shown here with the listed bibs each may be
 * a misread of ('¿Es el 5058?'), for the organizer to confirm in one click or set aside.
 */
export function BibSuggestions({ suggestions, busyRead, onAccept, onDismiss }: BibSuggestionsProps) {
  if (suggestions.length === 0) return null;
  return (
    <Stack as="ul" aria-label="Lecturas fuera de la lista de inscritos" gap="2">
      {suggestions.map((suggestion) => {
        const busy = busyRead === suggestion.number;
        return (
          <Box
            as="li"
            key={suggestion.number}
            listStyleType="none"
            borderWidth="1px"
            borderColor="orange.200"
            bg="orange.50"
            borderRadius="md"
            p="2"
          >
            <Text textStyle="xs" color="fg.muted" mb="1.5">
              Se leyó <strong>{suggestion.number}</strong>, que no está en la lista de inscritos.
              {suggestion.nearest.length === 0 && " Ningún inscrito tiene un dorsal parecido."}
            </Text>
            <HStack gap="1.5" wrap="wrap">
              {suggestion.nearest.map((candidate) => (
                <Button
                  key={candidate.dorsalNumber}
                  size="xs"
                  variant="outline"
                  colorPalette="orange"
                  bg="white"
                  h="auto"
                  minH="8"
                  py="1"
                  whiteSpace="normal"
                  textAlign="start"
                  maxW="full"
                  disabled={busy}
                  onClick={() => onAccept(suggestion.number, candidate.dorsalNumber)}
                  aria-label={`Aceptar el dorsal ${candidate.dorsalNumber}${candidate.name ? ` de ${candidate.name}` : ""} en lugar de ${suggestion.number}`}
                >
                  ¿Es el {candidate.dorsalNumber}?{candidate.name ? ` · ${candidate.name}` : ""}
                </Button>
              ))}
              <Button
                size="xs"
                variant="ghost"
                minH="8"
                disabled={busy}
                onClick={() => onDismiss(suggestion.number)}
                aria-label={`Descartar la lectura ${suggestion.number}`}
              >
                Descartar
              </Button>
            </HStack>
          </Box>
        );
      })}
    </Stack>
  );
}
