import {
  Badge,
  Button,
  ButtonGroup,
  Card,
  Heading,
  HStack,
  IconButton,
  Pagination,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  VisuallyHidden,
} from "@chakra-ui/react";
import type { PublicEventDto } from "@dorsal/shared";
import { EmptyState } from "../../../components/ui/empty-state";
import { CalendarIcon, SearchIcon } from "../../../components/ui/icons";
import { LoadError } from "../../../components/ui/load-error";
import { formatCount, formatEventDate } from "../../../lib/format";
import { type Catalogue, useBrowsableEvents, useDorsalPage } from "../api/browse";

/** Step 1 of browsing: the events that have photos to show, as cards. */
export function EventCards({
  catalogue,
  onChoose,
  emptyText,
}: {
  catalogue: Catalogue;
  onChoose: (event: PublicEventDto) => void;
  emptyText: string;
}) {
  const events = useBrowsableEvents(catalogue);
  if (events.isPending) {
    return (
      <SimpleGrid columns={{ base: 1, md: 3 }} gap="4" aria-busy="true">
        <Skeleton height="28" />
        <Skeleton height="28" />
        <Skeleton height="28" />
      </SimpleGrid>
    );
  }
  if (events.isError) {
    return <LoadError title="Error cargando eventos" query={events} />;
  }
  if (events.data.length === 0) {
    return <EmptyState icon={<SearchIcon />} title="Aún no hay fotos" description={emptyText} />;
  }
  return (
    <Stack as="section" gap="3" aria-labelledby="events-title">
      <Heading as="h2" size="md" id="events-title">
        Eventos con fotos
      </Heading>
      <SimpleGrid as="ul" columns={{ base: 1, md: 2, lg: 3 }} gap="4">
        {events.data.map((event) => (
          // A grid item is as wide as its content by default: minW 0 lets long names wrap instead.
          <Card.Root as="li" key={event.id} listStyleType="none" minW="0">
            <Card.Body gap="2">
              <Card.Title overflowWrap="anywhere">{event.name}</Card.Title>
              <HStack color="fg.muted" textStyle="sm" gap="1.5" align="flex-start">
                <CalendarIcon boxSize="4" flexShrink={0} mt="0.5" aria-hidden />
                <Text minW="0" overflowWrap="anywhere">
                  {formatEventDate(event.date)}
                  {event.location ? ` · ${event.location}` : ""}
                </Text>
              </HStack>
              <HStack gap="2" wrap="wrap">
                <Badge colorPalette="blue">
                  {formatCount(event.photoCount)} {event.photoCount === 1 ? "foto" : "fotos"}
                </Badge>
                {event.freePhotosEnabled && <Badge colorPalette="green">Gratis</Badge>}
              </HStack>
            </Card.Body>
            <Card.Footer>
              <Button
                size="sm"
                colorPalette="blue"
                width={{ base: "full", sm: "auto" }}
                onClick={() => onChoose(event)}
                aria-label={`Ver dorsales de ${event.name}`}
              >
                Ver dorsales
              </Button>
            </Card.Footer>
          </Card.Root>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/** Step 2: the event's bibs, 5 columns and 100 per page (spec §2.6), each page asked of the API. */
export function BibGrid({
  catalogue,
  eventId,
  page,
  onPage,
  onChoose,
}: {
  catalogue: Catalogue;
  eventId: number;
  page: number;
  onPage: (page: number) => void;
  onChoose: (dorsal: string) => void;
}) {
  const dorsals = useDorsalPage(catalogue, eventId, page);
  if (dorsals.isPending) return <Skeleton height="48" aria-busy="true" />;
  if (dorsals.isError) {
    return <LoadError title="Error cargando fotos" query={dorsals} />;
  }
  const { dorsals: bibs, total, pageSize } = dorsals.data;
  if (total === 0) {
    return <Text color="fg.muted">Este evento aún no tiene dorsales con fotos.</Text>;
  }
  return (
    <Stack as="section" gap="3" aria-labelledby="bibs-title">
      <Heading as="h2" size="md" id="bibs-title">
        {formatCount(total)} {total === 1 ? "dorsal" : "dorsales"} con fotos
      </Heading>
      <SimpleGrid as="ul" columns={{ base: 3, sm: 5 }} gap="2" aria-busy={dorsals.isPlaceholderData}>
        {bibs.map((bib) => (
          <li key={bib.dorsalNumber} style={{ listStyle: "none" }}>
            {/* The name comes from the text, hidden words included, so that it contains what is seen
                (WCAG 2.5.3: a voice user says the bib shown). Each child of the flex button is read as
                a word of its own: "Dorsal 77 con 1 foto". */}
            <Button variant="outline" width="full" onClick={() => onChoose(bib.dorsalNumber)}>
              <VisuallyHidden>Dorsal</VisuallyHidden>
              {bib.dorsalNumber}
              <VisuallyHidden>con</VisuallyHidden>
              <Badge size="sm" variant="subtle">
                {bib.photoCount}
              </Badge>
              <VisuallyHidden>{bib.photoCount === 1 ? "foto" : "fotos"}</VisuallyHidden>
            </Button>
          </li>
        ))}
      </SimpleGrid>
      {total > pageSize && (
        <Pagination.Root
          count={total}
          pageSize={pageSize}
          page={dorsals.data.page}
          onPageChange={(details) => onPage(details.page)}
        >
          <ButtonGroup variant="ghost" size="sm" wrap="wrap">
            <Pagination.PrevTrigger asChild>
              <IconButton aria-label="Página anterior">‹</IconButton>
            </Pagination.PrevTrigger>
            <Pagination.Items
              render={(item) => <IconButton variant={{ base: "ghost", _selected: "outline" }}>{item.value}</IconButton>}
            />
            <Pagination.NextTrigger asChild>
              <IconButton aria-label="Página siguiente">›</IconButton>
            </Pagination.NextTrigger>
          </ButtonGroup>
        </Pagination.Root>
      )}
    </Stack>
  );
}
