import { Box, Skeleton, Stack, Text } from "@chakra-ui/react";
import { pricingMessages } from "@dorsal/shared";
import { useEffect, useState } from "react";
import { EventSelect } from "../../../components/ui/event-select";
import { LoadError } from "../../../components/ui/load-error";
import { PageHeader } from "../../../components/ui/page-header";
import { toaster } from "../../../components/ui/toaster";
import { useEventPricing } from "../../../lib/queries/event-pricing";
import { newestEvent, useEvents } from "../../../lib/queries/events";
import { PricingForm } from "./pricing-form";

function EventPricingSection({ eventId, eventName }: { eventId: number; eventName: string }) {
  const pricing = useEventPricing(eventId);

  useEffect(() => {
    if (pricing.error)
      toaster.create({ type: "error", title: pricingMessages.loadFailed, description: pricing.error.message });
  }, [pricing.error]);

  if (pricing.data) {
    // Keyed by event: switching events starts the form over from that event's pricing.
    return <PricingForm key={eventId} eventId={eventId} eventName={eventName} pricing={pricing.data} />;
  }
  if (pricing.isError) {
    return <LoadError title={pricingMessages.loadFailed} query={pricing} />;
  }
  return (
    <Stack gap="4" aria-busy="true" aria-label="Cargando precios">
      <Skeleton height="32" />
      <Skeleton height="48" />
    </Stack>
  );
}

/** 'Precios' (spec §2.7 Event pricing): per-event price per photo, volume tiers and download validity. */
export function PricingPage() {
  const events = useEvents();
  const [chosen, setChosen] = useState<number | null>(null);
  const list = events.data ?? [];
  // Spec §2.3/§2.5: admin pickers start on the newest event until another is chosen.
  const eventId = chosen ?? newestEvent(list)?.id ?? null;
  const event = list.find((candidate) => candidate.id === eventId);

  return (
    <Box>
      <PageHeader
        title="Precios por evento"
        subtitle="Precio por foto, descuentos por volumen y validez de la descarga de cada evento"
      />
      <Stack gap="6">
        <Box maxW="md">
          <EventSelect events={list} value={eventId} onChange={setChosen} disabled={events.isPending} />
        </Box>
        {events.isError ? (
          <LoadError title="Error cargando eventos" query={events} />
        ) : event ? (
          <EventPricingSection eventId={event.id} eventName={event.name} />
        ) : (
          !events.isPending && <Text color="fg.muted">Crea un evento para configurar sus precios.</Text>
        )}
      </Stack>
    </Box>
  );
}
