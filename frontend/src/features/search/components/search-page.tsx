import { Alert, Box, Button, Card, Field, Input, SimpleGrid, Skeleton, Stack } from "@chakra-ui/react";
import { idParam, messages, searchQuery } from "@dorsal/shared";
import { type FormEvent, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { EventSelect } from "../../../components/ui/event-select";
import { PageHeader } from "../../../components/ui/page-header";
import { useEvents } from "../../events/api/get-events";
import { purchaseStorageKeys } from "../../purchase/api/purchase-intent";
import type { PhotoSearch } from "../api/search-photos";
import { BibGrid, EventCards } from "./browse";
import { PhotoResults } from "./photo-results";

/** The search lives in the address so results can be shared, reloaded and reached with Back. */
function searchFromParams(params: URLSearchParams): PhotoSearch | null {
  const parsed = searchQuery.safeParse({ eventId: params.get("eventId"), dorsalNumber: params.get("dorsal") ?? "" });
  return parsed.success ? parsed.data : null;
}

export function SearchPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const events = useEvents();
  const search = searchFromParams(params);
  const browsedEvent = idParam.safeParse(params.get("eventId"));
  const page = Math.max(1, Number(params.get("page")) || 1);
  const [eventId, setEventId] = useState<number | null>(search?.eventId ?? browsedEvent.data ?? null);
  const [dorsal, setDorsal] = useState(search?.dorsalNumber ?? "");
  const [incomplete, setIncomplete] = useState(false);

  /** Spec §4: another event starts over — page, bib and any purchase the search had stored. */
  const chooseEvent = (id: number | null) => {
    setEventId(id);
    setDorsal("");
    for (const key of purchaseStorageKeys) window.localStorage.removeItem(key);
    setParams(id === null ? {} : { eventId: String(id) });
  };
  const chooseBib = (bib: string) => {
    if (eventId === null) return;
    setDorsal(bib);
    setParams({ eventId: String(eventId), dorsal: bib });
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = searchQuery.safeParse({ eventId, dorsalNumber: dorsal });
    if (!parsed.success) {
      setIncomplete(true);
      return;
    }
    setIncomplete(false);
    setParams({ eventId: String(parsed.data.eventId), dorsal: parsed.data.dorsalNumber });
  };

  return (
    <Box>
      <PageHeader title="Encuentra tus fotos" subtitle="Elige la carrera y escribe tu número de dorsal" />
      <Stack gap="6">
        {params.get("error") === "no_download_token" && (
          <Alert.Root status="error">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>Enlace de descarga no válido</Alert.Title>
              <Alert.Description>
                Token de descarga requerido. Usa el enlace completo que recibiste después de tu compra.
              </Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}
        <Card.Root>
          <Card.Body>
            <form onSubmit={submit} noValidate aria-label="Buscar fotos por dorsal">
              <SimpleGrid columns={{ base: 1, md: 3 }} gap="4" alignItems="end">
                <Box gridColumn={{ md: "span 2" }}>
                  {events.isPending ? (
                    <Skeleton height="16" />
                  ) : events.isError ? (
                    <Alert.Root status="error">
                      <Alert.Indicator />
                      <Alert.Title>Error cargando eventos</Alert.Title>
                    </Alert.Root>
                  ) : (
                    <EventSelect events={events.data} value={eventId} onChange={chooseEvent} />
                  )}
                </Box>
                <Field.Root>
                  <Field.Label>Número de dorsal</Field.Label>
                  <Input
                    value={dorsal}
                    onChange={(event) => setDorsal(event.currentTarget.value.replace(/\D/g, ""))}
                    inputMode="numeric"
                    pattern="[0-9]*"
                    maxLength={10}
                    placeholder="Ej. 1234"
                    bg="white"
                  />
                </Field.Root>
              </SimpleGrid>
              <Button type="submit" colorPalette="blue" mt="4" width={{ base: "full", md: "auto" }}>
                Buscar fotos
              </Button>
            </form>
          </Card.Body>
        </Card.Root>
        {incomplete && (
          <Alert.Root status="warning">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{messages.incompleteSearch}</Alert.Title>
              <Alert.Description>Selecciona un evento e ingresa tu número de dorsal.</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}
        {!search && !browsedEvent.success && (
          <EventCards
            catalogue="paid"
            emptyText="Cuando los organizadores suban las fotos de una carrera, aparecerá aquí."
            onChoose={(event) =>
              event.freePhotosEnabled ? navigate(`/free-photos?eventId=${event.id}`) : chooseEvent(event.id)
            }
          />
        )}
        {!search && browsedEvent.success && (
          <BibGrid
            catalogue="paid"
            eventId={browsedEvent.data}
            page={page}
            onPage={(next) => setParams({ eventId: String(browsedEvent.data), page: String(next) })}
            onChoose={chooseBib}
          />
        )}
        {search && (
          <PhotoResults
            key={`${search.eventId}:${search.dorsalNumber}`}
            search={search}
            eventName={events.data?.find((event) => event.id === search.eventId)?.name ?? ""}
          />
        )}
      </Stack>
    </Box>
  );
}
