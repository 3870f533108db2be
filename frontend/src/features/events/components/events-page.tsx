import { Box, Grid, Heading } from "@chakra-ui/react";
import { useLocation, useSearchParams } from "react-router";
import { PageHeader } from "../../../components/ui/page-header";
import { CreateEventForm } from "./create-event-form";
import { EventDeletions } from "./event-deletions";
import { EventList } from "./event-list";

export function EventsPage() {
  const [params] = useSearchParams();
  // Keyed by navigation, so choosing 'Nuevo Evento' again while here focuses the name again.
  const { key } = useLocation();
  return (
    <Box>
      <PageHeader title="Gestión de Eventos" subtitle="Crea eventos y sigue el procesamiento de sus fotos" />
      <Grid
        templateColumns={{ base: "minmax(0, 1fr)", lg: "minmax(0, 3fr) minmax(0, 2fr)" }}
        gap="6"
        alignItems="start"
      >
        <Box as="section" aria-labelledby="events-title" order={{ base: 2, lg: 1 }}>
          <Heading as="h2" size="lg" id="events-title" mb="3">
            Eventos
          </Heading>
          <EventList />
        </Box>
        <Box order={{ base: 1, lg: 2 }}>
          <EventDeletions />
          <CreateEventForm key={key} focusName={params.get("new") === "1"} />
        </Box>
      </Grid>
    </Box>
  );
}
