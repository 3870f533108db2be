import { Badge, Box, Heading, HStack, Progress, Stack, Text } from "@chakra-ui/react";
import type { EventDeletionDto } from "@dorsal/shared";
import { formatCount, formatCounted, formatDateTime } from "../../../lib/format";
import { useEventDeletions } from "../api/delete-event";

/** What a deletion has removed, in words: its photos, bibs and files. */
function deletedSummary({ deleted }: Pick<EventDeletionDto, "deleted">): string {
  return `${formatCounted(deleted.photos, "foto", "fotos")}, ${formatCounted(deleted.participants, "dorsal", "dorsales")} y ${formatCounted(deleted.objects, "archivo", "archivos")}`;
}

function DeletionRow({ deletion }: { deletion: EventDeletionDto }) {
  const running = deletion.status === "running";
  const percent = Math.round(deletion.progress * 100);
  return (
    <Box as="li" listStyleType="none" p="3" borderWidth="1px" borderRadius="md" bg="white">
      <HStack justify="space-between" align="flex-start" gap="3">
        <Text fontWeight="medium" minW="0" truncate>
          {deletion.eventName}
        </Text>
        <Badge colorPalette={running ? "orange" : "gray"} flexShrink={0}>
          {running ? "Eliminando" : "Eliminado"}
        </Badge>
      </HStack>
      <Text textStyle="sm" color="fg.muted" mt="1">
        {running
          ? `${percent} % · ${formatCount(deletion.deleted.photos)} de ${formatCount(deletion.photosAtStart)} fotos eliminadas`
          : `Se eliminaron ${deletedSummary(deletion)} · ${formatDateTime(deletion.finishedAt ?? deletion.startedAt)}`}
      </Text>
      {running && (
        <Progress.Root value={percent} size="xs" colorPalette="orange" mt="2">
          <Progress.Track aria-label={`Progreso de la eliminación de ${deletion.eventName}`}>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      )}
    </Box>
  );
}

/**
 * Deletions run in the background: the event leaves every page at once, and here the admin follows
 * its photos and files going, and sees what each deletion of the last day removed. Nothing shows
 * when there is none.
 */
export function EventDeletions() {
  const { data: deletions } = useEventDeletions();
  if (!deletions || deletions.length === 0) return null;
  return (
    <Box as="section" aria-labelledby="deletions-title" mb="6">
      <Heading as="h2" size="md" id="deletions-title" mb="2">
        Eliminaciones
      </Heading>
      <Stack as="ul" gap="2" aria-live="polite">
        {deletions.map((deletion) => (
          <DeletionRow key={deletion.eventId} deletion={deletion} />
        ))}
      </Stack>
    </Box>
  );
}
