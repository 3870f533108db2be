import { Box, Button, Card, Heading, HStack, SimpleGrid } from "@chakra-ui/react";
import { useEffect } from "react";
import { Link as RouterLink } from "react-router";
import { EmptyState } from "../../../components/ui/empty-state";
import { CalendarIcon } from "../../../components/ui/icons";
import { LinkCards } from "../../../components/ui/link-cards";
import { LoadError } from "../../../components/ui/load-error";
import { PageHeader } from "../../../components/ui/page-header";
import { StatCard } from "../../../components/ui/stat-card";
import { formatCop, formatCount } from "../../../lib/format";
import { useDashboardStats } from "../../../lib/queries/dashboard-stats";
import { useEvents } from "../../../lib/queries/events";
import { statCaptions } from "../api/captions";
import { ProcessingCard } from "./processing-card";

const shortcuts = [
  { to: "/events", title: "Gestión de Eventos", text: "Crea eventos y revisa su estado.", action: "Ver eventos" },
  { to: "/upload", title: "Carga Masiva de Fotos", text: "Sube las fotos de un evento.", action: "Subir fotos" },
  { to: "/search", title: "Búsqueda por dorsal", text: "Encuentra las fotos de un participante.", action: "Buscar" },
  {
    to: "/event-pricing",
    title: "Precios por evento",
    text: "Precio por foto y descuentos por volumen.",
    action: "Configurar precios",
  },
  {
    to: "/photographer-applications",
    title: "Aplicaciones de fotógrafos",
    text: "Revisa quién quiere fotografiar tus eventos.",
    action: "Ver aplicaciones",
  },
] as const;

/** 'Resumen del Sistema': each figure of the stats with its caption, in the spec's order. */
const figures = [
  { key: "activeEvents", label: "Eventos Activos", format: formatCount, accent: "blue.500" },
  { key: "processedPhotos", label: "Fotos Procesadas", format: formatCount, accent: "green.500" },
  { key: "detectedDorsals", label: "Dorsales Detectados", format: formatCount, accent: "purple.500" },
  { key: "monthlySales", label: "Ventas del Mes", format: formatCop, accent: "orange.500" },
] as const;

/** An organizer's first visit: nothing works before an event exists, so that is the one next step. */
function FirstEvent() {
  return (
    <Box mb="8">
      <EmptyState
        icon={<CalendarIcon />}
        title="Crea tu primer evento"
        description="Un evento reúne las fotos de una carrera. Sube sus fotos y los corredores las encuentran por su número de dorsal."
        action={
          <Button asChild colorPalette="blue">
            <RouterLink to="/events?new=1">Crear evento</RouterLink>
          </Button>
        }
      />
    </Box>
  );
}

/**
 * Spec §2.3's 'Rendimiento' button to the performance screen and, beside it, the preflight, which
 * no header item leads to (issue 21).
 */
function OpsLinks() {
  return (
    <HStack gap="2" wrap="wrap">
      <Button asChild variant="outline" colorPalette="blue">
        <RouterLink to="/performance-dashboard">Rendimiento</RouterLink>
      </Button>
      <Button asChild variant="ghost" colorPalette="blue">
        <RouterLink to="/preflight">Verificación previa</RouterLink>
      </Button>
    </HStack>
  );
}

/** Spec §2.3 'Dashboard General', in Spanish ('Panel general', issue 17). */
export function DashboardPage() {
  const stats = useDashboardStats();
  const events = useEvents();
  const captions = stats.data && statCaptions(stats.data);

  useEffect(() => {
    if (stats.error) console.error("Error cargando las estadísticas del panel", stats.error);
  }, [stats.error]);

  return (
    <Box>
      <PageHeader title="Panel general" subtitle="Gestión completa de eventos y fotografías" actions={<OpsLinks />} />

      {events.data?.length === 0 && <FirstEvent />}

      {stats.isError ? (
        <Card.Root as="section" aria-labelledby="stats-summary-title" mb="8">
          <Card.Header>
            <Heading as="h2" size="lg" id="stats-summary-title">
              Resumen del Sistema
            </Heading>
          </Card.Header>
          <Card.Body>
            <LoadError title="Error cargando las estadísticas del panel" query={stats} />
          </Card.Body>
        </Card.Root>
      ) : (
        <SimpleGrid as="section" aria-label="Resumen del Sistema" columns={{ base: 1, sm: 2, xl: 4 }} gap="4" mb="8">
          {figures.map((figure) => (
            <StatCard
              key={figure.key}
              label={figure.label}
              value={stats.data && figure.format(stats.data[figure.key])}
              caption={captions?.[figure.key]}
              accent={figure.accent}
            />
          ))}
        </SimpleGrid>
      )}

      {events.data?.length !== 0 && <ProcessingCard />}

      <LinkCards cards={shortcuts} emphasis="solid" />
    </Box>
  );
}
