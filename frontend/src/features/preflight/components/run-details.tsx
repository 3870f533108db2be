import { Box, Card, DataList, Heading, HStack, SimpleGrid, Stack, Tabs, Text } from "@chakra-ui/react";
import type { PreflightCheckDto, PreflightRunDto } from "@dorsal/shared";
import { EmptyState } from "../../../components/ui/empty-state";
import { formatDateTime } from "../../../lib/format";
import { checkLabels, environmentLabels, formatDuration, formatMegabytes } from "../api/format";
import { StatusBadge, StatusIcon } from "./status-icon";

function CheckCard({ check }: { check: PreflightCheckDto }) {
  const label = checkLabels[check.name];
  return (
    <Card.Root
      as="li"
      size="sm"
      borderLeftWidth="4px"
      borderLeftColor={{ GREEN: "green.500", YELLOW: "yellow.400", RED: "red.500" }[check.status]}
      data-testid="preflight-check"
    >
      <Card.Body gap="2">
        <HStack justify="space-between" align="flex-start" gap="3">
          <HStack gap="2" minW="0">
            <StatusIcon status={check.status} boxSize="5" />
            <Heading as="h3" size="sm">
              {label}
            </Heading>
          </HStack>
          <StatusBadge status={check.status} />
        </HStack>
        <Text textStyle="sm" wordBreak="break-word">
          {check.detail}
        </Text>
        <HStack gap="3" textStyle="xs" color="fg.muted" wrap="wrap">
          <Text>{formatDuration(check.ms)}</Text>
          <Text>{formatDateTime(check.at)}</Text>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}

function ComponentChecks({ run }: { run: PreflightRunDto }) {
  const pending = Math.max(0, run.expectedChecks - run.checks.length);
  if (run.checks.length === 0) {
    return (
      <EmptyState
        variant="inline"
        title={run.state === "running" ? "Esperando la primera verificación" : "Sin verificaciones"}
        description={
          run.state === "running"
            ? "Cada verificación aparece aquí en cuanto termina."
            : "La validación terminó antes de completar alguna verificación."
        }
      />
    );
  }
  return (
    <Stack gap="3">
      <SimpleGrid as="ul" listStyleType="none" columns={{ base: 1, md: 2, xl: 3 }} gap="3">
        {run.checks.map((check) => (
          <CheckCard key={check.name} check={check} />
        ))}
      </SimpleGrid>
      {run.state === "running" && pending > 0 && (
        <Text textStyle="sm" color="fg.muted">
          {pending === 1 ? "Falta 1 verificación." : `Faltan ${pending} verificaciones.`}
        </Text>
      )}
    </Stack>
  );
}

function DetailedResults({ run }: { run: PreflightRunDto }) {
  return (
    <Box
      as="pre"
      tabIndex={0}
      role="region"
      aria-label="Resultados detallados (JSON)"
      focusVisibleRing="inside"
      maxH="28rem"
      overflow="auto"
      bg="gray.50"
      borderWidth="1px"
      borderRadius="md"
      p="3"
      textStyle="xs"
      fontFamily="mono"
      whiteSpace="pre"
    >
      {JSON.stringify(run, null, 2)}
    </Box>
  );
}

function SystemInformation({ run }: { run: PreflightRunDto }) {
  const info = run.systemInfo;
  const items: [string, string][] = [
    ["Memoria RSS", info ? formatMegabytes(info.memory.rss) : "—"],
    ["Heap usado", info ? formatMegabytes(info.memory.heapUsed) : "—"],
    ["Memoria externa", info ? formatMegabytes(info.memory.external) : "—"],
    ["Versión de Node.js", info?.nodeVersion ?? "—"],
    ["Entorno", info ? environmentLabels[info.environment] : "—"],
    ["ID del evento", run.eventId === null ? "Ninguno" : String(run.eventId)],
    ["Inicio de la validación", formatDateTime(run.startedAt)],
  ];
  return (
    <Stack gap="3">
      <DataList.Root orientation="horizontal" gap="3">
        {items.map(([label, value]) => (
          <DataList.Item key={label}>
            <DataList.ItemLabel minWidth={{ base: "36", md: "48" }}>{label}</DataList.ItemLabel>
            <DataList.ItemValue fontWeight="medium">{value}</DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList.Root>
      {!info && (
        <Text textStyle="sm" color="fg.muted">
          La memoria y el entorno se conocen cuando la validación termina.
        </Text>
      )}
    </Stack>
  );
}

/** Spec §2.7's tabs: the checks one card each, the run as JSON, and the system it ran on. */
export function RunDetails({ run }: { run: PreflightRunDto }) {
  return (
    <Tabs.Root defaultValue="checks" variant="line" size={{ base: "sm", md: "md" }} lazyMount unmountOnExit>
      <Tabs.List overflowX="auto" overflowY="hidden">
        <Tabs.Trigger value="checks" flexShrink={0}>
          Verificaciones
        </Tabs.Trigger>
        <Tabs.Trigger value="details" flexShrink={0}>
          Detalle
        </Tabs.Trigger>
        <Tabs.Trigger value="system" flexShrink={0}>
          Sistema
        </Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="checks">
        <ComponentChecks run={run} />
      </Tabs.Content>
      <Tabs.Content value="details">
        <DetailedResults run={run} />
      </Tabs.Content>
      <Tabs.Content value="system">
        <SystemInformation run={run} />
      </Tabs.Content>
    </Tabs.Root>
  );
}
