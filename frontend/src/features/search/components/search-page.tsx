import { Alert, Box, Button, Card, Field, Input, SimpleGrid, Skeleton, Stack } from "@chakra-ui/react";
import {
  bibTextMaxLength,
  bibTextMessage,
  idParam,
  isBibText,
  messages,
  type SearchMode,
  searchQuery,
} from "@dorsal/shared";
import type { FaceSearchPhoto } from "@dorsal/shared/face-search";
import { type FormEvent, lazy, Suspense, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { EventSelect } from "../../../components/ui/event-select";
import { LoadError } from "../../../components/ui/load-error";
import { PageHeader } from "../../../components/ui/page-header";
import { purchaseStorageKeys } from "../../../lib/purchase-intent";
import { useEvents } from "../../../lib/queries/events";
import type { PhotoSearch } from "../../../lib/queries/search-photos";
import { useSession } from "../../../lib/session";
import { BibGrid, EventCards } from "./browse";
import { FreePhotos } from "./free-photos-page";
import { PhotoResults } from "./photo-results";

/** The search lives in the address so results can be shared, reloaded and reached with Back. */
function searchFromParams(params: URLSearchParams): PhotoSearch | null {
  const parsed = searchQuery.safeParse({ eventId: params.get("eventId"), dorsalNumber: params.get("dorsal") ?? "" });
  return parsed.success ? parsed.data : null;
}

/**
 * A bib is letters and digits as printed ('4821', 'M10380'); said as it is typed rather than after
 * a search that cannot run. Nothing typed yet is the missing-field message's job.
 */
function bibProblem(typed: string): string | null {
  const bib = typed.trim();
  if (bib === "" || isBibText(bib)) return null;
  if (bib.length > bibTextMaxLength) return `El dorsal tiene como máximo ${bibTextMaxLength} caracteres`;
  return bibTextMessage;
}

/** Asked for after a search only, so the first load carries neither it nor its schemas. */
const NotifyMe = lazy(() => import("./notify-me").then((module) => ({ default: module.NotifyMe })));

/** Opened by the athlete on an event with selfie search, so the first load carries neither it nor its texts. */
const SelfieSearch = lazy(() => import("./selfie-search").then((module) => ({ default: module.SelfieSearch })));

/** Only admins see it, so visitors' first load does not carry it. */
const SearchModeSwitch = lazy(() =>
  import("./search-mode-switch").then((module) => ({ default: module.SearchModeSwitch })),
);

export function SearchPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const isAdmin = useSession()?.role === "admin";
  const [adminChoice, setAdminChoice] = useState<SearchMode>("admin");
  const mode: SearchMode = isAdmin ? adminChoice : "participant";
  const events = useEvents();
  const search = searchFromParams(params);
  const browsedEvent = idParam.safeParse(params.get("eventId"));
  const page = Math.max(1, Number(params.get("page")) || 1);
  const [eventId, setEventId] = useState<number | null>(search?.eventId ?? browsedEvent.data ?? null);
  const [dorsal, setDorsal] = useState(search?.dorsalNumber ?? "");
  /** A search was asked for with something missing: the missing parts are marked until supplied. */
  const [attempted, setAttempted] = useState(false);
  const [selfieOpen, setSelfieOpen] = useState(false);
  /** The photos the athlete's selfie found in the chosen event, shown with the bib's. */
  const [faceMatches, setFaceMatches] = useState<FaceSearchPhoto[] | null>(null);

  /** Spec §4: another event starts over — page, bib, warnings and any purchase the search had stored. */
  const chooseEvent = (id: number | null) => {
    setEventId(id);
    setDorsal("");
    setAttempted(false);
    setSelfieOpen(false);
    setFaceMatches(null);
    for (const key of purchaseStorageKeys) window.localStorage.removeItem(key);
    setParams(id === null ? {} : { eventId: String(id) });
  };
  const chooseBib = (bib: string) => {
    if (eventId === null) return;
    setDorsal(bib);
    setParams({ eventId: String(eventId), dorsal: bib });
  };
  const browseEvent = (id: number) => {
    setDorsal("");
    setParams({ eventId: String(id) });
  };

  const eventMissing = attempted && eventId === null;
  const bibMissing = attempted && dorsal.trim() === "";
  const bibError = bibProblem(dorsal) ?? (bibMissing ? "Escribe tu número de dorsal" : null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = searchQuery.safeParse({ eventId, dorsalNumber: dorsal });
    if (!parsed.success) {
      setAttempted(true);
      return;
    }
    setAttempted(false);
    setParams({ eventId: String(parsed.data.eventId), dorsal: parsed.data.dorsalNumber });
  };

  const searchedEvent = search ? events.data?.find((candidate) => candidate.id === search.eventId) : undefined;
  const chosenEvent = events.data?.find((candidate) => candidate.id === eventId);
  // Issue 23: only where the organizer switched it on; a free event's photos are not bought.
  const offersSelfie = chosenEvent?.faceSearch === true && !chosenEvent.freePhotosEnabled;

  return (
    <Box>
      <PageHeader title="Encuentra tus fotos" subtitle="Elige la carrera y escribe tu número de dorsal" />
      <Stack gap="6">
        {isAdmin && (
          <Suspense fallback={null}>
            <SearchModeSwitch mode={mode} onChange={setAdminChoice} />
          </Suspense>
        )}
        {params.get("error") === "no_download_token" && (
          <Alert.Root status="error">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>Enlace de descarga no válido</Alert.Title>
              <Alert.Description>
                Al enlace le falta una parte. Ábrelo completo, tal como lo copiaste al terminar tu compra.
              </Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}
        <Card.Root>
          <Card.Body>
            <form onSubmit={submit} noValidate aria-label="Buscar fotos por dorsal">
              <SimpleGrid columns={{ base: 1, md: 3 }} gap="4" alignItems="start">
                <Box gridColumn={{ md: "span 2" }} minW="0">
                  {events.isPending ? (
                    <Skeleton height="16" />
                  ) : events.isError ? (
                    <LoadError title="Error cargando eventos" query={events} />
                  ) : (
                    <EventSelect
                      events={events.data}
                      value={eventId}
                      onChange={chooseEvent}
                      invalid={eventMissing}
                      errorText={eventMissing ? "Elige la carrera" : undefined}
                    />
                  )}
                </Box>
                <Field.Root invalid={bibError !== null}>
                  <Field.Label>Número de dorsal</Field.Label>
                  <Input
                    value={dorsal}
                    onChange={(event) => setDorsal(event.currentTarget.value)}
                    autoCapitalize="characters"
                    autoComplete="off"
                    maxLength={bibTextMaxLength + 1}
                    placeholder="Ej. 1234"
                    bg="white"
                  />
                  {bibError && <Field.ErrorText>{bibError}</Field.ErrorText>}
                </Field.Root>
              </SimpleGrid>
              {(eventMissing || bibMissing) && (
                <Alert.Root status="warning" role="alert" mt="4">
                  <Alert.Indicator />
                  <Alert.Content>
                    <Alert.Title>{messages.incompleteSearch}</Alert.Title>
                    <Alert.Description>
                      {eventMissing && bibMissing
                        ? "Elige la carrera y escribe tu número de dorsal."
                        : eventMissing
                          ? "Elige la carrera."
                          : "Escribe tu número de dorsal."}
                    </Alert.Description>
                  </Alert.Content>
                </Alert.Root>
              )}
              <Stack direction={{ base: "column", md: "row" }} gap="3" mt="4">
                <Button type="submit" colorPalette="blue" width={{ base: "full", md: "auto" }}>
                  Buscar fotos
                </Button>
                {offersSelfie && (
                  <Button
                    variant="outline"
                    colorPalette="blue"
                    width={{ base: "full", md: "auto" }}
                    aria-expanded={selfieOpen}
                    onClick={() => setSelfieOpen((open) => !open)}
                  >
                    Buscar con una selfie
                  </Button>
                )}
              </Stack>
            </form>
          </Card.Body>
        </Card.Root>
        {offersSelfie && selfieOpen && eventId !== null && (
          <Suspense fallback={<Skeleton height="48" />}>
            <SelfieSearch
              key={eventId}
              eventId={eventId}
              eventName={chosenEvent?.name ?? ""}
              bibSearched={search !== null}
              onFound={setFaceMatches}
            />
          </Suspense>
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
        {search &&
          (events.isPending ? (
            <Skeleton height="48" />
          ) : searchedEvent?.freePhotosEnabled ? (
            // Spec §2.6: a free event's photos are downloaded free, never bought.
            <FreePhotos
              key={`${search.eventId}:${search.dorsalNumber}`}
              eventId={search.eventId}
              dorsal={search.dorsalNumber}
              onBrowse={() => browseEvent(search.eventId)}
            />
          ) : (
            <PhotoResults
              key={`${search.eventId}:${search.dorsalNumber}`}
              search={search}
              faceMatches={faceMatches}
              eventName={searchedEvent?.name ?? ""}
              mode={mode}
              onBrowse={() => browseEvent(search.eventId)}
            />
          ))}
        {search && mode === "participant" && (
          <Suspense fallback={null}>
            <NotifyMe
              key={`${search.eventId}:${search.dorsalNumber}`}
              eventId={search.eventId}
              eventName={searchedEvent?.name ?? ""}
              dorsal={search.dorsalNumber}
            />
          </Suspense>
        )}
      </Stack>
    </Box>
  );
}
