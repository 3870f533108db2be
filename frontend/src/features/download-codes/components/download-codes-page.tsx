import {
  Alert,
  Box,
  Button,
  Card,
  Field,
  Grid,
  Heading,
  HStack,
  Input,
  List,
  NativeSelect,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from "@chakra-ui/react";
import {
  bibTextMaxLength,
  codeMaxDownloads,
  codeValidityDays,
  type DownloadCodeResult,
  type GenerateDownloadCodeRequest,
  generateDownloadCodeRequest,
  salesMessages,
} from "@dorsal/shared";
import { type FormEvent, useState } from "react";
import { EventSelect } from "../../../components/ui/event-select";
import { LoadError } from "../../../components/ui/load-error";
import { PageHeader } from "../../../components/ui/page-header";
import { toaster } from "../../../components/ui/toaster";
import { ApiError } from "../../../lib/api-fetch";
import { newestEvent, useEvents } from "../../../lib/queries/events";
import { codeEligibleEvents } from "../api/code-message";
import { useGenerateDownloadCode } from "../api/download-codes";
import { CodeResultCard } from "./code-result-card";
import { IssuedCodesTable } from "./issued-codes-table";

const workflow = [
  "El cliente paga por billetera móvil o transferencia",
  "Envía el comprobante y su número de dorsal por chat",
  "Generas aquí el código de descarga y se lo envías",
  "El cliente busca su dorsal y descarga sus fotos con el código",
];

/** Spec §9: validity 30 days and 5 downloads unless the organizer chooses otherwise. */
const defaults = { expiresInDays: 30, maxDownloads: 5 } as const;

function WorkflowBanner() {
  return (
    <Alert.Root status="info" alignItems="flex-start">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>Pagos por billetera móvil</Alert.Title>
        <List.Root as="ol" ps="5" mt="1" gap="0.5" textStyle="sm">
          {workflow.map((step) => (
            <List.Item key={step}>{step}</List.Item>
          ))}
        </List.Root>
      </Alert.Content>
    </Alert.Root>
  );
}

/** 'Generar Códigos de Descarga' (spec §2.7): a code for a customer who paid outside the payment gateway. */
export function DownloadCodesPage() {
  const events = useEvents();
  const eligible = codeEligibleEvents(events.data ?? []);
  const [chosen, setChosen] = useState<number | null>(null);
  // Spec §2.3: admin pickers start on the newest event until another is chosen.
  const eventId = chosen ?? newestEvent(eligible)?.id ?? null;
  const [dorsal, setDorsal] = useState("");
  const [expiresInDays, setExpiresInDays] = useState<number>(defaults.expiresInDays);
  const [maxDownloads, setMaxDownloads] = useState<number>(defaults.maxDownloads);
  const [email, setEmail] = useState("");
  const [emailError, setEmailError] = useState<string | undefined>();
  const [missing, setMissing] = useState(false);
  const [result, setResult] = useState<DownloadCodeResult | null>(null);
  /** The server found no photos of the bib: the request waits for the organizer's decision. */
  const [unconfirmed, setUnconfirmed] = useState<{ request: GenerateDownloadCodeRequest; message: string } | null>(
    null,
  );
  const generate = useGenerateDownloadCode();

  const issue = (request: GenerateDownloadCodeRequest) =>
    generate.mutate(request, {
      onSuccess: (generated) => {
        setResult(generated);
        setDorsal("");
        setEmail("");
        setUnconfirmed(null);
        toaster.create({ type: "success", title: "Código generado exitosamente", description: generated.code });
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 409) {
          setUnconfirmed({ request, message: error.message });
          return;
        }
        toaster.create({
          type: "error",
          title: "❌ Error al generar código",
          description: error instanceof ApiError ? error.message : salesMessages.codeGenerateFailed,
        });
      },
    });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setUnconfirmed(null);
    const parsed = generateDownloadCodeRequest.safeParse({
      eventId: eventId ?? undefined,
      dorsalNumber: dorsal,
      expiresInDays,
      maxDownloads,
      email,
    });
    const badEmail = parsed.error?.issues.find((issue) => issue.path[0] === "email");
    if (badEmail) {
      setEmailError(badEmail.message);
      return;
    }
    if (!parsed.success) {
      setMissing(true);
      toaster.create({ type: "error", title: "Campos requeridos", description: salesMessages.codeFieldsRequired });
      return;
    }
    issue(parsed.data);
  };

  return (
    <Box>
      <PageHeader
        title="Generar Códigos de Descarga"
        subtitle="Para clientes que pagan por billetera móvil o transferencia y envían su comprobante"
      />
      <Stack gap="6">
        <WorkflowBanner />
        <Grid templateColumns={{ base: "1fr", lg: "repeat(2, minmax(0, 1fr))" }} gap="6" alignItems="start">
          <Card.Root as="section" aria-labelledby="generate-code-title">
            <Card.Header>
              <Heading as="h2" size="lg" id="generate-code-title">
                Nuevo código
              </Heading>
            </Card.Header>
            <Card.Body>
              <form onSubmit={submit} noValidate aria-label="Generar código de descarga">
                <Stack gap="4">
                  {events.isPending ? (
                    <Skeleton height="16" />
                  ) : events.isError ? (
                    <LoadError title="Error cargando eventos" query={events} />
                  ) : (
                    <Box>
                      <EventSelect
                        events={eligible}
                        value={eventId}
                        onChange={(next) => {
                          setChosen(next);
                          setMissing(false);
                          setUnconfirmed(null);
                        }}
                        invalid={missing && eventId === null}
                      />
                      <Text textStyle="xs" color="fg.muted" mt="1">
                        Solo eventos activos sin fotos gratis.
                      </Text>
                    </Box>
                  )}
                  <Field.Root required invalid={missing && dorsal === ""}>
                    <Field.Label>
                      Número de dorsal <Field.RequiredIndicator />
                    </Field.Label>
                    <Input
                      value={dorsal}
                      onChange={(change) => {
                        // Bibs are letters and digits as printed ('M10380'); anything else never reaches the field.
                        setDorsal(change.currentTarget.value.replace(/[^A-Za-z0-9]/g, "").toUpperCase());
                        setMissing(false);
                        setUnconfirmed(null);
                      }}
                      autoCapitalize="characters"
                      maxLength={bibTextMaxLength}
                      placeholder="Ej. 1234"
                      autoComplete="off"
                      bg="white"
                    />
                  </Field.Root>
                  <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
                    <Field.Root>
                      <Field.Label>Validez</Field.Label>
                      <NativeSelect.Root>
                        <NativeSelect.Field
                          value={expiresInDays}
                          onChange={(change) => setExpiresInDays(Number(change.currentTarget.value))}
                          bg="white"
                        >
                          {codeValidityDays.map((days) => (
                            <option key={days} value={days}>
                              {days} días
                            </option>
                          ))}
                        </NativeSelect.Field>
                        <NativeSelect.Indicator />
                      </NativeSelect.Root>
                    </Field.Root>
                    <Field.Root>
                      <Field.Label>Descargas máximas</Field.Label>
                      <NativeSelect.Root>
                        <NativeSelect.Field
                          value={maxDownloads}
                          onChange={(change) => setMaxDownloads(Number(change.currentTarget.value))}
                          bg="white"
                        >
                          {codeMaxDownloads.map((count) => (
                            <option key={count} value={count}>
                              {count} descargas
                            </option>
                          ))}
                        </NativeSelect.Field>
                        <NativeSelect.Indicator />
                      </NativeSelect.Root>
                      <Field.HelperText>Por cada foto del dorsal.</Field.HelperText>
                    </Field.Root>
                  </SimpleGrid>
                  <Field.Root invalid={emailError !== undefined}>
                    <Field.Label>Correo del cliente (opcional)</Field.Label>
                    <Input
                      type="email"
                      value={email}
                      onChange={(change) => {
                        setEmail(change.currentTarget.value);
                        setEmailError(undefined);
                      }}
                      placeholder="cliente@correo.com"
                      autoComplete="off"
                      maxLength={254}
                      bg="white"
                    />
                    {emailError ? (
                      <Field.ErrorText>{emailError}</Field.ErrorText>
                    ) : (
                      <Field.HelperText>Si lo escribes, le enviamos el mensaje del código por correo.</Field.HelperText>
                    )}
                  </Field.Root>
                  {unconfirmed ? (
                    <Alert.Root status="warning" alignItems="flex-start" role="alert">
                      <Alert.Indicator />
                      <Alert.Content>
                        <Alert.Title>{unconfirmed.message}</Alert.Title>
                        <Alert.Description>
                          Revisa el número: puede estar mal escrito, o sus fotos aún no se han subido. El código solo
                          abre las fotos de este dorsal.
                        </Alert.Description>
                        <HStack mt="3" gap="2" wrap="wrap">
                          <Button
                            size="sm"
                            colorPalette="orange"
                            loading={generate.isPending}
                            onClick={() => issue({ ...unconfirmed.request, allowWithoutPhotos: true })}
                          >
                            Generar de todos modos
                          </Button>
                          <Button size="sm" variant="outline" onClick={() => setUnconfirmed(null)}>
                            No generar
                          </Button>
                        </HStack>
                      </Alert.Content>
                    </Alert.Root>
                  ) : (
                    <Button type="submit" colorPalette="blue" loading={generate.isPending} loadingText="Generando...">
                      Generar código
                    </Button>
                  )}
                </Stack>
              </form>
            </Card.Body>
          </Card.Root>
          {result ? (
            <CodeResultCard key={result.code} result={result} />
          ) : (
            <Text color="fg.muted" alignSelf="center" textAlign="center">
              El código generado aparecerá aquí, con un mensaje listo para enviar al cliente.
            </Text>
          )}
        </Grid>
        {eventId !== null && (
          <Box as="section" aria-labelledby="issued-codes-title">
            <Heading as="h2" size="lg" id="issued-codes-title" mb="3">
              Códigos del evento
            </Heading>
            <IssuedCodesTable eventId={eventId} />
          </Box>
        )}
      </Stack>
    </Box>
  );
}
