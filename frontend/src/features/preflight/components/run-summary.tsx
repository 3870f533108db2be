import { Alert, Badge, Card, Heading, HStack, List, Progress, SimpleGrid, Stack, Stat, Text } from "@chakra-ui/react";
import type { PreflightCheckDto, PreflightRunDto, PreflightStatus } from "@dorsal/shared";
import { formatDateTime } from "../../../lib/format";
import {
  checkLabels,
  formatDuration,
  preflightText,
  progressPercent,
  stateLabels,
  statusCounts,
  triggerLabels,
} from "../api/format";
import { StatusBadge } from "./status-icon";

/** One figure of the overall status card. */
function Figure({ label, value, accent }: { label: string; value: string; accent: string }) {
  return (
    <Stat.Root borderTopWidth="4px" borderTopColor={accent} pt="2">
      <Stat.Label>{label}</Stat.Label>
      <Stat.ValueText fontSize={{ base: "xl", md: "2xl" }}>{value}</Stat.ValueText>
    </Stat.Root>
  );
}

function CheckList({ checks }: { checks: PreflightCheckDto[] }) {
  return (
    <List.Root ps="4" mt="1" gap="0.5">
      {checks.map((check) => (
        <List.Item key={check.name}>
          <Text as="span" fontWeight="semibold">
            {checkLabels[check.name]}:
          </Text>{" "}
          {check.detail}
        </List.Item>
      ))}
    </List.Root>
  );
}

/**
 * What the ended run means for race day (spec §2.7, §4): RED asks for the failures to be fixed
 * before the race (nothing blocks uploads, so the screen does not say it does), YELLOW allows
 * uploads, GREEN names what is ready.
 */
function Verdict({ run, eventName }: { run: PreflightRunDto; eventName: string | null }) {
  if (run.state === "interrupted") {
    return (
      <Alert.Root status="warning">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>La validación se interrumpió antes de terminar.</Alert.Title>
          <Alert.Description>
            El proceso que la ejecutaba se detuvo (un reinicio o un tiempo límite). Ejecuta la validación de nuevo.
          </Alert.Description>
        </Alert.Content>
      </Alert.Root>
    );
  }
  if (run.state !== "done" || !run.status) return null;
  const byStatus = (status: PreflightStatus) => run.checks.filter((check) => check.status === status);
  if (run.status === "RED") {
    return (
      <Alert.Root status="error" alignItems="flex-start">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>Hay fallas críticas: resuélvelas antes de la carrera.</Alert.Title>
          <Alert.Description>
            <CheckList checks={byStatus("RED")} />
          </Alert.Description>
        </Alert.Content>
      </Alert.Root>
    );
  }
  if (run.status === "YELLOW") {
    return (
      <Alert.Root status="warning" alignItems="flex-start">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>Hay advertencias: las subidas siguen permitidas.</Alert.Title>
          <Alert.Description>
            <CheckList checks={byStatus("YELLOW")} />
          </Alert.Description>
        </Alert.Content>
      </Alert.Root>
    );
  }
  return (
    <Alert.Root status="success">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>
          {eventName ? `El evento «${eventName}» está listo para la carrera.` : "El sistema está listo."}
        </Alert.Title>
        <Alert.Description>Todas las verificaciones terminaron sin fallas ni advertencias.</Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

/** The overall status card, the progress bar while the run goes on, and its verdict. */
export function RunSummary({ run, eventName }: { run: PreflightRunDto; eventName: string | null }) {
  const counts = statusCounts(run);
  const running = run.state === "running";
  const percent = progressPercent(run);
  return (
    <Stack gap="4">
      <Card.Root as="section" aria-labelledby="preflight-status-title">
        <Card.Header>
          <Stack direction={{ base: "column", sm: "row" }} justify="space-between" gap="2">
            <Stack gap="0.5">
              <Heading as="h2" size="lg" id="preflight-status-title">
                Estado general
              </Heading>
              <Text textStyle="sm" color="fg.muted">
                {formatDateTime(run.startedAt)} · {triggerLabels[run.trigger]} · {eventName ?? "Solo el sistema"}
              </Text>
            </Stack>
            <HStack gap="2" data-testid="preflight-overall">
              {run.status && <StatusBadge status={run.status} size="lg" />}
              {run.state !== "done" && (
                <Badge size="lg" colorPalette={running ? "blue" : "orange"} variant="outline">
                  {stateLabels[run.state]}
                </Badge>
              )}
            </HStack>
          </Stack>
        </Card.Header>
        <Card.Body gap="5">
          <SimpleGrid columns={{ base: 2, md: 4 }} gap="4">
            <Figure label={preflightText.passed} value={String(counts.GREEN)} accent="green.500" />
            <Figure label={preflightText.warnings} value={String(counts.YELLOW)} accent="yellow.400" />
            <Figure label={preflightText.criticalFailures} value={String(counts.RED)} accent="red.500" />
            <Figure
              label={preflightText.totalTime}
              value={run.totalMs === null ? "—" : formatDuration(run.totalMs)}
              accent="blue.500"
            />
          </SimpleGrid>
          {running && (
            <Progress.Root value={percent} colorPalette="blue" striped animated>
              <HStack justify="space-between" gap="3">
                <Progress.Label>Validando</Progress.Label>
                <Progress.ValueText>
                  {run.checks.length} de {run.expectedChecks} verificaciones
                </Progress.ValueText>
              </HStack>
              <Progress.Track mt="1" aria-label="Progreso de la validación">
                <Progress.Range />
              </Progress.Track>
            </Progress.Root>
          )}
        </Card.Body>
      </Card.Root>
      <Verdict run={run} eventName={eventName} />
    </Stack>
  );
}
