import { Alert, Box, Button, createIcon, SimpleGrid, Skeleton, Stack, Text } from "@chakra-ui/react";
import type { PerformanceStatsDto } from "@dorsal/shared";
import { useEffect, useState } from "react";
import { Link as RouterLink } from "react-router";
import { EmptyState } from "../../../components/ui/empty-state";
import { RefreshIcon } from "../../../components/ui/icons";
import { LoadError } from "../../../components/ui/load-error";
import { PageFooter } from "../../../components/ui/page-footer";
import { PageHeader } from "../../../components/ui/page-header";
import { toaster } from "../../../components/ui/toaster";
import { formatDateTime } from "../../../lib/format";
import { useEvents } from "../../../lib/queries/events";
import { alertStatus, performanceText, photosMeasured, severityLabels } from "../api/format";
import {
  useCacheStats,
  usePerformanceStats,
  useQueueStats,
  useReloadPerformance,
  useUploadMetrics,
} from "../api/performance";
import { CacheCard } from "./cache-card";
import { CleanupCard } from "./cleanup-card";
import { FailuresCard } from "./failures-card";
import { MemoryTrend } from "./memory-trend";
import { QueueCard } from "./queue-card";
import { Section } from "./section";
import { StageTable } from "./stage-table";
import { SummaryFigures } from "./summary-figures";
import { UploadCard } from "./upload-card";

const ChartIcon = createIcon({
  displayName: "ChartIcon",
  path: (
    <path
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      d="M4 20h16M7 16v-5m5 5V7m5 9v-3"
    />
  ),
});

/**
 * Spec §2.7: metric load errors are toasts. One per failure, not one per poll: a toast when a read
 * starts failing (or fails for another reason); the card that could not be read says it too, with
 * 'Reintentar'.
 */
function useLoadErrorToast(queries: { error: Error | null }[]) {
  const message = queries.find((query) => query.error)?.error?.message ?? null;
  useEffect(() => {
    if (message !== null) toaster.create({ type: "error", title: performanceText.loadFailed, description: message });
  }, [message]);
}

/** Spec's SLA alerts: the p95 from arrival to searchable over 5 minutes past a minute (critical past two). */
function SlaAlerts({ alerts }: { alerts: PerformanceStatsDto["alerts"] }) {
  if (alerts.length === 0) return null;
  return (
    <Stack gap="3">
      {alerts.map((alert) => (
        <Alert.Root key={`${alert.alertType}-${alert.timestamp}`} status={alertStatus(alert)} data-testid="sla-alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>
              {severityLabels[alert.severity]}: las fotos tardan más de lo esperado en poder buscarse
            </Alert.Title>
            <Alert.Description>{/[.!?]$/.test(alert.message) ? alert.message : `${alert.message}.`}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      ))}
    </Stack>
  );
}

/** Why the hour's figures are missing: no photo went through the pipeline in the last hour. */
function NothingMeasured() {
  return (
    <EmptyState
      icon={<ChartIcon />}
      title="Aún no hay fotos medidas en la última hora"
      description="Los tiempos de cada etapa y las fotos por minuto aparecen en cuanto se procesan fotos. Sube fotos a un evento y vuelve aquí."
      action={
        <Button asChild colorPalette="blue">
          <RouterLink to="/upload">Subir fotos</RouterLink>
        </Button>
      }
    />
  );
}

function StagesCard({ stats }: { stats: PerformanceStatsDto }) {
  return (
    <Section title="Tiempos por etapa" description="Última hora · se actualiza cada 30 s" testId="stages-card">
      <Stack gap="3">
        <StageTable stages={stats.stages} />
        <Text textStyle="xs" color="fg.muted">
          Mediana: la mitad de las fotos tardó menos. P95: 95 de cada 100 fotos tardaron menos. El objetivo es que una
          foto se pueda buscar antes de un minuto desde que llega.
        </Text>
      </Stack>
    </Section>
  );
}

function MemoryCard({ stats }: { stats: PerformanceStatsDto }) {
  return (
    <Section
      title="Memoria"
      description="Últimas 20 lecturas de la última hora, del servidor que procesa las fotos"
      testId="memory-card"
    >
      <MemoryTrend readings={stats.memoryTrend} />
    </Section>
  );
}

/**
 * Spec §2.7 'Performance dashboard' (issue 21 item 2), _Rendimiento_: what the pipeline measured in
 * the last hour (stage times, photos per minute, memory), the SLA alert, the queue, the organizer's
 * own latest upload, the signed URL cache, failures by reason and the temporary-files cleanup.
 * Every figure is measured; one the platform cannot tell is '—' with the reason.
 */
export function PerformancePage() {
  const stats = usePerformanceStats();
  const cache = useCacheStats();
  const queue = useQueueStats();
  const upload = useUploadMetrics();
  const events = useEvents();
  const reload = useReloadPerformance();
  useLoadErrorToast([stats, cache, queue, upload]);

  const measured = stats.data !== undefined && photosMeasured(stats.data);
  const names = new Map((events.data ?? []).map((event) => [event.id, event.name]));
  const eventName = (id: number | null) => (id === null ? null : (names.get(id) ?? null));
  // Only a reload asked for spins the button; the polls refresh quietly.
  const [reloading, setReloading] = useState(false);
  const reloadAll = async () => {
    setReloading(true);
    try {
      await reload();
    } finally {
      setReloading(false);
    }
  };

  return (
    <Box>
      <PageHeader
        title={performanceText.title}
        subtitle="Cuánto tardan las fotos en poder buscarse, la cola de procesamiento, la memoria y tu última subida"
      />

      <Stack gap="6">
        {stats.data && <SlaAlerts alerts={stats.data.alerts} />}

        {stats.data ? (
          measured ? (
            <SummaryFigures stats={stats.data} />
          ) : (
            <NothingMeasured />
          )
        ) : stats.isError ? (
          <LoadError title={performanceText.loadFailed} query={stats} />
        ) : (
          <Skeleton height="48" />
        )}

        <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6" alignItems="start">
          {stats.data && measured && <StagesCard stats={stats.data} />}
          {stats.data && <MemoryCard stats={stats.data} />}
          <UploadCard upload={upload} eventName={eventName} />
          <QueueCard queue={queue} />
          <CacheCard cache={cache} />
          {stats.data && <FailuresCard failures={stats.data.failuresByReason} />}
          <CleanupCard />
        </SimpleGrid>

        <PageFooter>
          <Text textStyle="sm" color="fg.muted" data-testid="performance-updated">
            Última actualización: {stats.data ? formatDateTime(stats.data.lastUpdated) : "—"}
          </Text>
          <Button
            size="sm"
            variant="outline"
            alignSelf={{ md: "center" }}
            onClick={() => void reloadAll()}
            loading={reloading}
          >
            <RefreshIcon />
            {performanceText.refresh}
          </Button>
        </PageFooter>
      </Stack>
    </Box>
  );
}
