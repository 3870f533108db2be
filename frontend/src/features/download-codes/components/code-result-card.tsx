import { Alert, Box, Button, Card, Code, DataList, Heading, Stack, Text } from "@chakra-ui/react";
import { type DownloadCodeResult, mailMessages } from "@dorsal/shared";
import { codeChatMessage } from "@dorsal/shared/mail-texts";
import { CheckIcon } from "../../../components/ui/icons";
import { useCopy } from "../../../components/ui/use-copy";
import { formatValidUntil } from "../api/code-message";

export function CodeResultCard({ result }: { result: DownloadCodeResult }) {
  const message = codeChatMessage(result, window.location.origin);
  const { copied, copy } = useCopy(message);

  return (
    <Card.Root as="section" aria-labelledby="code-result-title" borderColor="green.300" data-testid="code-result">
      <Card.Header>
        <Heading as="h2" size="lg" id="code-result-title">
          Código generado
        </Heading>
      </Card.Header>
      <Card.Body>
        <Stack gap="5">
          <Box textAlign="center" py="4" borderRadius="lg" bg="green.50">
            <Text
              fontFamily="mono"
              fontSize={{ base: "3xl", md: "4xl" }}
              fontWeight="bold"
              letterSpacing="widest"
              wordBreak="break-all"
              data-testid="generated-code"
            >
              {result.code}
            </Text>
          </Box>
          <DataList.Root orientation="horizontal">
            <DataList.Item>
              <DataList.ItemLabel>Dorsal</DataList.ItemLabel>
              <DataList.ItemValue>{result.dorsalNumber}</DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel>Evento</DataList.ItemLabel>
              <DataList.ItemValue>{result.eventName}</DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel>Válido hasta</DataList.ItemLabel>
              <DataList.ItemValue>{formatValidUntil(result.expiresAt)}</DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel>Descargas por foto</DataList.ItemLabel>
              <DataList.ItemValue>{result.maxDownloads}</DataList.ItemValue>
            </DataList.Item>
          </DataList.Root>
          {result.mail && (
            <Alert.Root status={result.mail.sent ? "success" : "warning"} size="sm" data-testid="code-mail">
              <Alert.Indicator />
              <Alert.Description>
                {result.mail.sent
                  ? `Mensaje enviado por correo a ${result.mail.to}.`
                  : `${mailMessages.notSent} a ${result.mail.to}: copia el mensaje y envíaselo por chat.`}
              </Alert.Description>
            </Alert.Root>
          )}
          <Stack gap="2">
            <Text fontWeight="medium">Mensaje para el cliente</Text>
            <Code as="pre" p="3" whiteSpace="pre-wrap" display="block" data-testid="code-message">
              {message}
            </Code>
            <Button onClick={copy} colorPalette={copied ? "green" : "blue"} alignSelf={{ sm: "flex-start" }}>
              {copied ? (
                <>
                  <CheckIcon /> Mensaje copiado
                </>
              ) : (
                "Copiar mensaje"
              )}
            </Button>
          </Stack>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
