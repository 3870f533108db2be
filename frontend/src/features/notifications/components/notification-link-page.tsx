import { Alert, Box, Button, Card, Stack, Text } from "@chakra-ui/react";
import { notificationsApi } from "@dorsal/shared/contract/notifications";
import { notifyMessages } from "@dorsal/shared/notifications";
import { useState } from "react";
import { Link as RouterLink, useLocation } from "react-router";
import { PageHeader } from "../../../components/ui/page-header";
import { apiCall } from "../../../lib/api-fetch";

type Phase =
  | { name: "ready" }
  | { name: "sending" }
  | { name: "done"; message: string }
  | { name: "failed"; message: string };

const pages = {
  confirmar: {
    title: "Confirma tu aviso",
    text: "Pulsa Confirmar y te escribiremos cuando haya fotos de tu dorsal. Puedes darte de baja con el enlace de cada correo.",
    button: "Confirmar",
    endpoint: notificationsApi.confirm,
  },
  baja: {
    title: "Dejar de recibir avisos",
    text: "Pulsa el botón y no te escribiremos más sobre las fotos de este dorsal.",
    button: "Darme de baja",
    endpoint: notificationsApi.unsubscribe,
  },
} as const;

/**
 * The page an 'avísame' email's link opens (/avisos/confirmar, /avisos/baja). The token rides in
 * the address's fragment, which no server or log ever receives; the page acts only when the person
 * presses the button (a POST), because mail scanners open every link of a message.
 */
export function NotificationLinkPage({ action }: { action: keyof typeof pages }) {
  // A link pasted over an open one changes only the fragment: the page starts over with it.
  const token = useLocation().hash.slice(1);
  return <LinkAction key={token} action={action} token={token} />;
}

function LinkAction({ action, token }: { action: keyof typeof pages; token: string }) {
  const page = pages[action];
  const [phase, setPhase] = useState<Phase>(
    token ? { name: "ready" } : { name: "failed", message: notifyMessages.linkInvalid },
  );

  const act = async () => {
    setPhase({ name: "sending" });
    try {
      const answer = await apiCall(page.endpoint, { body: { token } });
      setPhase({ name: "done", message: answer.message });
    } catch (error) {
      setPhase({ name: "failed", message: error instanceof Error ? error.message : String(error) });
    }
  };

  return (
    <Box maxW="2xl">
      <PageHeader title={page.title} />
      <Card.Root>
        <Card.Body>
          <Stack gap="4">
            {phase.name === "done" || phase.name === "failed" ? (
              <Alert.Root status={phase.name === "done" ? "success" : "error"} role="status">
                <Alert.Indicator />
                <Alert.Content>
                  <Alert.Description>{phase.message}</Alert.Description>
                </Alert.Content>
              </Alert.Root>
            ) : (
              <>
                <Text>{page.text}</Text>
                <Button
                  colorPalette="blue"
                  onClick={act}
                  loading={phase.name === "sending"}
                  alignSelf={{ base: "stretch", md: "flex-start" }}
                >
                  {page.button}
                </Button>
              </>
            )}
            {(phase.name === "done" || phase.name === "failed") && (
              <Button asChild variant="outline" alignSelf={{ base: "stretch", md: "flex-start" }}>
                <RouterLink to="/search">Buscar mis fotos</RouterLink>
              </Button>
            )}
          </Stack>
        </Card.Body>
      </Card.Root>
    </Box>
  );
}
