import {
  Alert,
  Box,
  Button,
  Card,
  Checkbox,
  Field,
  Heading,
  HStack,
  NativeSelect,
  Skeleton,
  Stack,
  Text,
} from "@chakra-ui/react";
import type { EventDto, PreflightRunDto } from "@dorsal/shared";
import { useEffect, useRef, useState } from "react";
import { EmptyState } from "../../../components/ui/empty-state";
import { CheckIcon, RefreshIcon } from "../../../components/ui/icons";
import { LoadError } from "../../../components/ui/load-error";
import { PageFooter } from "../../../components/ui/page-footer";
import { PageHeader } from "../../../components/ui/page-header";
import { formatDateTime } from "../../../lib/format";
import { newestEvent, useEvents } from "../../../lib/queries/events";
import { eventOptionLabel, preflightText, startFailureMessage } from "../api/format";
import { usePreflightRun, usePreflightRuns, useReloadRuns, useStartPreflight } from "../api/preflight-runs";
import { RunDetails } from "./run-details";
import { RunHistory } from "./run-history";
import { RunSummary } from "./run-summary";

/** Spec §9: with auto-refresh on, a new validation 30 s after the last one ended. */
const autoRefreshMs = 30_000;

const noEventValue = "none";

function EventChoice({
  events,
  value,
  onChange,
  disabled,
}: {
  events: EventDto[];
  value: number | null;
  onChange: (eventId: number | null) => void;
  disabled: boolean;
}) {
  return (
    <Field.Root disabled={disabled}>
      <Field.Label>Evento a validar</Field.Label>
      <NativeSelect.Root>
        <NativeSelect.Field
          value={value === null ? noEventValue : String(value)}
          onChange={(event) => {
            const chosen = event.currentTarget.value;
            onChange(chosen === noEventValue ? null : Number(chosen));
          }}
          bg="white"
        >
          {[...events]
            .sort((a, b) => b.id - a.id)
            .map((event) => (
              <option key={event.id} value={event.id}>
                {eventOptionLabel(event)}
              </option>
            ))}
          <option value={noEventValue}>{preflightText.noEvent}</option>
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

/**
 * Spec §2.7 'Preflight dashboard' (issue 21): runs on demand the server's preflight — a probe photo
 * through every stage, plus payments, quotas and the chosen event — follows it check by check, and
 * keeps the history of every run (manual, scheduled, after a deploy). Served at /preflight and
 * /preflight-dashboard.
 */
export function PreflightPage() {
  const events = useEvents();
  const runs = usePreflightRuns();
  const start = useStartPreflight();
  const reloadRuns = useReloadRuns();

  // Undefined until the organizer chooses: then the newest event (not the spec's demo id 4).
  const [chosenEvent, setChosenEvent] = useState<number | null | undefined>(undefined);
  const eventId = chosenEvent === undefined ? (newestEvent(events.data ?? [])?.id ?? null) : chosenEvent;
  /** The run this page started last; it is followed until it ends. */
  const [startedId, setStartedId] = useState<string | null>(null);
  /** A run picked in the history; by default the one followed, else the newest. */
  const [pickedId, setPickedId] = useState<string | null>(null);
  const [autoRefresh, setAutoRefresh] = useState(false);

  const listed = runs.data?.runs ?? [];
  // Only one run goes at a time (the server holds a lock): a running one is the newest. It is
  // followed, whoever started it; else the one this page started (until the history lists it).
  const followedId = (listed[0]?.state === "running" ? listed[0].id : null) ?? startedId;
  const followed = usePreflightRun(followedId);
  // The run followed is read every second; the history shows it as read last, from its start on.
  const current = followedId !== null ? followed.data : undefined;
  const history = !current
    ? listed
    : listed.some((run) => run.id === current.id)
      ? listed.map((run) => (run.id === current.id ? current : run))
      : [current, ...listed];
  const newest = history[0];
  const runById = (id: string | null): PreflightRunDto | undefined =>
    id === null ? undefined : history.find((run) => run.id === id);
  const shown = runById(pickedId) ?? runById(followedId) ?? newest;
  const followedRun = runById(followedId);
  const running = start.isPending || followedRun?.state === "running";

  // When the run followed ends, the history shows how it ended, and a start refused while it ran
  // ('Validación fallida: ya hay una en curso') is no longer news.
  const followedEnded = followed.data !== undefined && followed.data.state !== "running";
  const { reset: forgetStartFailure } = start;
  useEffect(() => {
    if (!followedEnded) return;
    void reloadRuns();
    forgetStartFailure();
  }, [followedEnded, reloadRuns, forgetStartFailure]);

  const validate = () => {
    if (running) return;
    setPickedId(null);
    start.mutate(eventId === null ? {} : { eventId }, { onSuccess: (run) => setStartedId(run.id) });
  };

  // Auto-refresh: a new run 30 s after the last ended, never while one is running.
  const validateRef = useRef(validate);
  useEffect(() => {
    validateRef.current = validate;
  });
  useEffect(() => {
    if (!autoRefresh || running) return;
    const timer = window.setTimeout(() => validateRef.current(), autoRefreshMs);
    return () => window.clearTimeout(timer);
  }, [autoRefresh, running]);

  const names = new Map((events.data ?? []).map((event) => [event.id, event.name]));
  const eventName = (id: number | null) => (id === null ? null : (names.get(id) ?? `Evento ${id}`));
  const eventLabel = (id: number | null) => (id === null ? "Solo el sistema" : (eventName(id) ?? ""));
  // A run picked in the history is shown above it: the view and the focus go there.
  const shownRef = useRef<HTMLDivElement>(null);
  const show = (runId: string) => {
    setPickedId(runId);
    shownRef.current?.scrollIntoView({ block: "start" });
    shownRef.current?.focus({ preventScroll: true });
  };
  const lastValidation = newest ? formatDateTime(newest.startedAt) : preflightText.never;

  return (
    <Box>
      <PageHeader
        title={preflightText.title}
        subtitle="Comprueba antes de la carrera que subir, procesar, buscar y cobrar funcionan de punta a punta"
      />

      <Stack gap="6">
        <Card.Root as="section" aria-label="Nueva validación">
          <Card.Body>
            <Stack direction={{ base: "column", md: "row" }} align={{ base: "stretch", md: "flex-end" }} gap="4">
              <Box flex="1" maxW={{ md: "md" }}>
                {events.isError ? (
                  <LoadError title="Error cargando eventos" query={events} />
                ) : (
                  <EventChoice
                    events={events.data ?? []}
                    value={eventId}
                    onChange={setChosenEvent}
                    disabled={events.isPending || running}
                  />
                )}
              </Box>
              <Button
                colorPalette="blue"
                onClick={validate}
                disabled={running}
                loading={running}
                loadingText={preflightText.running}
              >
                {preflightText.run}
              </Button>
            </Stack>
            <Text textStyle="sm" color="fg.muted" mt="3">
              Crea un evento de prueba oculto, sube una foto con una cara y un dorsal y la sigue hasta la búsqueda; al
              terminar lo borra. Con un evento elegido, revisa también su configuración.
            </Text>
          </Card.Body>
        </Card.Root>

        {start.isError && (
          <Alert.Root status="error" role="alert">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{preflightText.failedPrefix}</Alert.Title>
              <Alert.Description>{startFailureMessage(start.error)}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}
        {followed.isError && <LoadError title="Error siguiendo la validación" query={followed} />}

        {runs.isPending ? (
          <Skeleton height="48" />
        ) : runs.isError ? (
          <LoadError title="Error cargando las validaciones" query={runs} />
        ) : shown ? (
          <Stack ref={shownRef} tabIndex={-1} gap="6" outline="none" scrollMarginTop="4">
            <RunSummary run={shown} eventName={eventName(shown.eventId)} />
            <Card.Root as="section" aria-label="Resultados de la validación">
              <Card.Body px={{ base: "3", md: "6" }}>
                <RunDetails key={shown.id} run={shown} />
              </Card.Body>
            </Card.Root>
          </Stack>
        ) : (
          <EmptyState
            icon={<CheckIcon />}
            title="Aún no hay validaciones"
            description="Ejecuta la validación antes de cada carrera: en pocos minutos sabrás si las fotos se pueden subir, procesar, encontrar y vender."
          />
        )}

        {history.length > 0 && (
          <Stack as="section" aria-labelledby="preflight-history-title" gap="3">
            <Heading as="h2" size="lg" id="preflight-history-title">
              Historial
            </Heading>
            <RunHistory runs={history} shownId={shown?.id ?? null} onShow={show} eventLabel={eventLabel} />
          </Stack>
        )}

        <PageFooter>
          <Text textStyle="sm" color="fg.muted" data-testid="preflight-last">
            Última validación: {lastValidation}
          </Text>
          <HStack gap="4" wrap="wrap" justify={{ base: "space-between", md: "flex-end" }}>
            <Checkbox.Root checked={autoRefresh} onCheckedChange={(change) => setAutoRefresh(change.checked === true)}>
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>{preflightText.autoRefresh}</Checkbox.Label>
            </Checkbox.Root>
            <Button
              size="sm"
              variant="outline"
              onClick={() => void runs.refetch()}
              loading={runs.isFetching && !runs.isPending}
            >
              <RefreshIcon />
              {preflightText.refresh}
            </Button>
          </HStack>
        </PageFooter>
      </Stack>
    </Box>
  );
}
