import { Box, Button, Stack } from "@chakra-ui/react";
import { CheckIcon } from "../../../components/ui/icons";
import { useCopy } from "../../../components/ui/use-copy";

/**
 * The `npm run migrate` command for this installation, to paste in a terminal: wrapped rather than
 * scrolled sideways on a phone, and copied whole by the button.
 */
export function MigrateCommand({ command }: { command: string }) {
  const { copied, copy } = useCopy(command);
  return (
    <Stack gap="2">
      <Box
        as="pre"
        data-testid="migrate-command"
        fontFamily="mono"
        textStyle="sm"
        bg="bg.muted"
        borderRadius="md"
        px="3"
        py="2"
        whiteSpace="pre-wrap"
        overflowWrap="anywhere"
      >
        {command}
      </Box>
      <Button
        onClick={() => void copy()}
        colorPalette={copied ? "green" : "blue"}
        variant="outline"
        alignSelf="flex-start"
      >
        {copied ? (
          <>
            <CheckIcon /> Comando copiado
          </>
        ) : (
          "Copiar comando"
        )}
      </Button>
    </Stack>
  );
}
