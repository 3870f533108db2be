import { Alert, Box, Button, Card, Code, Heading, Link, List, Stack, Text } from "@chakra-ui/react";
import { messages } from "@dorsal/shared";
import { useState } from "react";
import { Link as RouterLink } from "react-router";
import { EventSelect } from "../../../components/ui/event-select";
import { formatBytes } from "../../../lib/format";
import { acceptAttribute } from "../../../lib/image-input";
import { newestEvent, useEvents } from "../../../lib/queries/events";
import { useSession } from "../../../lib/session";
import { type DiagnosticResult, postDiagnosticPhotos } from "../api/post-photos";

/**
 * Spec §2.5's mobile upload diagnostic (/mobile-test): posts photos with an event id to the
 * multipart upload endpoint and shows what happened, with what the browser says about itself.
 * Public as a route; the upload itself needs a photographer or admin session, as every upload.
 */
export function MobileTestPage() {
  const user = useSession();
  const events = useEvents();
  const [chosenEventId, setChosenEventId] = useState<number | null | undefined>(undefined);
  const [files, setFiles] = useState<File[]>([]);
  const [results, setResults] = useState<DiagnosticResult[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const eventId =
    chosenEventId !== undefined
      ? chosenEventId
      : user?.role === "photographer"
        ? user.assignedEventId
        : (newestEvent(events.data ?? [])?.id ?? null);
  const canUpload = user?.role === "admin" || user?.role === "photographer";

  const send = async () => {
    setResults(null);
    if (files.length === 0) return setProblem(messages.selectPhoto);
    if (eventId === null) return setProblem(messages.selectEvent);
    setProblem(null);
    setSending(true);
    try {
      setResults(await postDiagnosticPhotos(eventId, files));
    } finally {
      setSending(false);
    }
  };

  const connection = (navigator as Navigator & { connection?: { effectiveType?: string } }).connection;
  return (
    <Stack gap="5" maxW="2xl" mx="auto">
      <Heading as="h1" size="xl">
        Diagnóstico de carga móvil
      </Heading>
      <Card.Root size="sm" variant="subtle">
        <Card.Body textStyle="sm" gap="1">
          <Text>Navegador: {navigator.userAgent}</Text>
          <Text>Conexión: {connection?.effectiveType ?? "desconocida"}</Text>
          <Text>En línea: {navigator.onLine ? "sí" : "no"}</Text>
        </Card.Body>
      </Card.Root>
      {!canUpload && (
        <Alert.Root status="info">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Inicia sesión para probar la carga</Alert.Title>
            <Alert.Description>
              Solo fotógrafos y administradores pueden subir fotos.{" "}
              <Link asChild>
                <RouterLink to="/photographer-login">Acceso fotógrafos</RouterLink>
              </Link>
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      <Card.Root>
        <Card.Body gap="4">
          {events.data && (
            <EventSelect events={events.data} value={eventId} onChange={setChosenEventId} disabled={sending} />
          )}
          <Box>
            <Text asChild fontWeight="medium" display="block" mb="1">
              <label htmlFor="mobile-test-photos">Fotos</label>
            </Text>
            <input
              id="mobile-test-photos"
              type="file"
              multiple
              accept={acceptAttribute}
              onChange={(event) => setFiles(Array.from(event.currentTarget.files ?? []))}
              disabled={sending}
            />
            {files.length > 0 && (
              <Text textStyle="sm" color="fg.muted" mt="1">
                {files.length} archivo(s), {formatBytes(files.reduce((sum, file) => sum + file.size, 0))}
              </Text>
            )}
          </Box>
          <Button colorPalette="blue" onClick={send} loading={sending} loadingText="Enviando..." disabled={!canUpload}>
            Enviar prueba
          </Button>
        </Card.Body>
      </Card.Root>
      {problem && (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>{problem}</Alert.Title>
        </Alert.Root>
      )}
      {results && (
        <Card.Root as="section" aria-label="Resultado">
          <Card.Body gap="3">
            {results.map((result) => (
              <Box key={result.endpoint}>
                <Text fontWeight="semibold">
                  <Code>{result.endpoint}</Code> · {result.status ?? "sin respuesta"} · {result.ms} ms
                </Text>
                {result.response ? (
                  <>
                    <Text color="green.700">{result.response.message}</Text>
                    <Text textStyle="sm">
                      Recibidas: {result.response.uploaded} · Fallidas: {result.response.failed}
                    </Text>
                    {result.response.performance.errors.length > 0 && (
                      <List.Root ps="4" textStyle="sm">
                        {result.response.performance.errors.map((error) => (
                          <List.Item key={error}>{error}</List.Item>
                        ))}
                      </List.Root>
                    )}
                  </>
                ) : (
                  <Text color="red.700">{result.error}</Text>
                )}
              </Box>
            ))}
          </Card.Body>
        </Card.Root>
      )}
    </Stack>
  );
}
