import { Alert, Box, Button, Card, Heading, SimpleGrid } from "@chakra-ui/react";
import { useEffect } from "react";
import { Link as RouterLink } from "react-router";
import { LinkCards } from "../../../components/ui/link-cards";
import { PageHeader } from "../../../components/ui/page-header";
import { formatCop, formatCount } from "../../../lib/format";
import { statCaptions } from "../api/captions";
import { useDashboardStats } from "../api/get-dashboard-stats";
import { ProcessingCard } from "./processing-card";
import { StatCard } from "./stat-card";

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

export function DashboardPage() {
  const stats = useDashboardStats();
  const captions = stats.data && statCaptions(stats.data);

  useEffect(() => {
    if (stats.error) console.error("Error cargando estadísticas del dashboard", stats.error);
  }, [stats.error]);

  return (
    <Box>
      <PageHeader
        title="Dashboard General"
        subtitle="Gestión completa de eventos y fotografías"
        actions={
          <Button asChild variant="outline" alignSelf={{ base: "flex-start", md: "center" }}>
            <RouterLink to="/performance-dashboard">Rendimiento</RouterLink>
          </Button>
        }
      />

      {stats.isError ? (
        <Card.Root mb="8">
          <Card.Header>
            <Heading as="h2" size="lg">
              Resumen del Sistema
            </Heading>
          </Card.Header>
          <Card.Body>
            <Alert.Root status="error">
              <Alert.Indicator />
              <Alert.Title>Error cargando estadísticas del dashboard</Alert.Title>
            </Alert.Root>
          </Card.Body>
        </Card.Root>
      ) : (
        <SimpleGrid as="section" aria-label="Resumen del Sistema" columns={{ base: 1, sm: 2, xl: 4 }} gap="4" mb="8">
          <StatCard
            label="Eventos Activos"
            value={stats.data && formatCount(stats.data.activeEvents)}
            caption={captions?.activeEvents}
            accent="blue.500"
          />
          <StatCard
            label="Fotos Procesadas"
            value={stats.data && formatCount(stats.data.processedPhotos)}
            caption={captions?.processedPhotos}
            accent="green.500"
          />
          <StatCard
            label="Dorsales Detectados"
            value={stats.data && formatCount(stats.data.detectedDorsals)}
            caption={captions?.detectedDorsals}
            accent="purple.500"
          />
          <StatCard
            label="Ventas del Mes"
            value={stats.data && formatCop(stats.data.monthlySales)}
            caption={captions?.monthlySales}
            accent="orange.500"
          />
        </SimpleGrid>
      )}

      <ProcessingCard />

      <LinkCards cards={shortcuts} emphasis="solid" />
    </Box>
  );
}
