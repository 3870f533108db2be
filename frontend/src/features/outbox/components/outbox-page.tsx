import {
  Alert,
  Box,
  Button,
  Card,
  chakra,
  DataList,
  Grid,
  Heading,
  Link,
  Skeleton,
  Stack,
  Text,
} from "@chakra-ui/react";
import { mailMessages, type OutboxEntry } from "@dorsal/shared";
import { Fragment } from "react";
import { useSearchParams } from "react-router";
import { EmptyState } from "../../../components/ui/empty-state";
import { ArrowLeftIcon, MailIcon } from "../../../components/ui/icons";
import { LoadError } from "../../../components/ui/load-error";
import { LoadMoreButton } from "../../../components/ui/load-more-button";
import { PageHeader } from "../../../components/ui/page-header";
import { formatDateTime } from "../../../lib/format";
import { splitLinks, useOutbox, useOutboxMessage } from "../api/outbox";

/** A message's text as written, its line breaks kept and its links clickable. */
function MessageText({ text }: { text: string }) {
  return (
    <Text whiteSpace="pre-wrap" overflowWrap="anywhere" data-testid="outbox-text">
      {splitLinks(text).map((part) =>
        part.link ? (
          <Link
            key={part.at}
            href={part.text}
            color="blue.700"
            textDecoration="underline"
            display="inline"
            wordBreak="break-all"
          >
            {part.text}
          </Link>
        ) : (
          <Fragment key={part.at}>{part.text}</Fragment>
        ),
      )}
    </Text>
  );
}

function MessageCard({ id, onBack }: { id: string; onBack: () => void }) {
  const message = useOutboxMessage(id);
  return (
    <Card.Root as="article" aria-labelledby="outbox-subject" data-testid="outbox-message">
      <Card.Header gap="3">
        <Button variant="ghost" size="sm" alignSelf="flex-start" onClick={onBack} display={{ lg: "none" }}>
          <ArrowLeftIcon /> Volver a la lista
        </Button>
        {message.data && (
          <Heading as="h2" size="lg" id="outbox-subject" overflowWrap="anywhere">
            {message.data.subject}
          </Heading>
        )}
      </Card.Header>
      <Card.Body gap="4">
        {message.isPending ? (
          <Stack gap="2" aria-busy="true" aria-label="Cargando el correo">
            <Skeleton height="6" />
            <Skeleton height="24" />
          </Stack>
        ) : message.isError ? (
          <LoadError title="Error cargando el correo" query={message} />
        ) : (
          <>
            <DataList.Root orientation="horizontal" size="sm">
              <DataList.Item>
                <DataList.ItemLabel>De</DataList.ItemLabel>
                <DataList.ItemValue overflowWrap="anywhere">{message.data.from}</DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>Para</DataList.ItemLabel>
                <DataList.ItemValue overflowWrap="anywhere">{message.data.to}</DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>Fecha</DataList.ItemLabel>
                <DataList.ItemValue>{formatDateTime(message.data.sentAt)}</DataList.ItemValue>
              </DataList.Item>
            </DataList.Root>
            <Box borderTopWidth="1px" pt="4">
              <MessageText text={message.data.text} />
            </Box>
          </>
        )}
      </Card.Body>
    </Card.Root>
  );
}

function MessageList({
  messages,
  selected,
  onOpen,
}: {
  messages: OutboxEntry[];
  selected: string | null;
  onOpen: (id: string) => void;
}) {
  return (
    <Stack as="ul" gap="0" borderWidth="1px" borderRadius="md" bg="white" aria-label="Correos enviados">
      {messages.map((entry) => (
        <Box as="li" key={entry.id} listStyleType="none" borderBottomWidth="1px" _last={{ borderBottomWidth: 0 }}>
          <chakra.button
            type="button"
            onClick={() => onOpen(entry.id)}
            aria-current={entry.id === selected ? "true" : undefined}
            data-testid="outbox-entry"
            w="full"
            textAlign="start"
            px="4"
            py="3"
            bg={entry.id === selected ? "blue.50" : undefined}
            _hover={{ bg: "gray.50" }}
            cursor="pointer"
          >
            <Text fontWeight="semibold" overflowWrap="anywhere">
              {entry.subject}
            </Text>
            <Text textStyle="sm" color="fg.muted" overflowWrap="anywhere">
              Para {entry.to} · {formatDateTime(entry.sentAt)}
            </Text>
          </chakra.button>
        </Box>
      ))}
    </Stack>
  );
}

/**
 * 'Correos enviados' (issue 22 item 4): what Dorsal emailed (download links, codes, application
 * results), newest first, each opened with its links clickable. Locally the outbox's files; on AWS
 * mail leaves through SES and nothing is kept, which the screen says.
 */
export function OutboxPage() {
  const outbox = useOutbox();
  const [params, setParams] = useSearchParams();
  const selected = params.get("id");
  const open = (id: string | null) => setParams(id ? { id } : {});
  const messages = outbox.data?.pages.flatMap((page) => page.messages) ?? [];
  const delivery = outbox.data?.pages[0]?.delivery;

  return (
    <Box>
      <PageHeader
        title="Correos enviados"
        subtitle="Enlaces de descarga, códigos y respuestas a las solicitudes de fotógrafos"
      />
      {outbox.isPending ? (
        <Stack gap="2" aria-busy="true" aria-label="Cargando correos">
          <Skeleton height="14" />
          <Skeleton height="14" />
        </Stack>
      ) : outbox.isError ? (
        <LoadError title="Error cargando los correos" query={outbox} />
      ) : delivery === "ses" ? (
        <Alert.Root status="info" alignItems="flex-start">
          <Alert.Indicator />
          <Alert.Description>{mailMessages.sentThroughSes}</Alert.Description>
        </Alert.Root>
      ) : messages.length === 0 ? (
        <EmptyState
          icon={<MailIcon />}
          title="Aún no se ha enviado ningún correo"
          description="Aquí aparecerán los enlaces de descarga de cada compra pagada, los códigos enviados por correo y las respuestas a las solicitudes de fotógrafos."
        />
      ) : (
        <Grid templateColumns={{ base: "1fr", lg: "minmax(0, 2fr) minmax(0, 3fr)" }} gap="6" alignItems="start">
          {/* On a phone the open message takes the screen; 'Volver a la lista' brings the list back. */}
          <Stack gap="3" display={{ base: selected ? "none" : "flex", lg: "flex" }}>
            <MessageList messages={messages} selected={selected} onOpen={open} />
            <LoadMoreButton list={outbox} />
          </Stack>
          {selected ? (
            <MessageCard id={selected} onBack={() => open(null)} />
          ) : (
            <Text color="fg.muted" display={{ base: "none", lg: "block" }} alignSelf="center" textAlign="center">
              Elige un correo para leerlo.
            </Text>
          )}
        </Grid>
      )}
    </Box>
  );
}
