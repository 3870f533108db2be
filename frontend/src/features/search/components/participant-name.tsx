import { Text } from "@chakra-ui/react";

/** Under a bib's results: whose bib it is, when the event's start list names them. */
export function ParticipantName({ dorsalNumber, name }: { dorsalNumber: string; name: string | null | undefined }) {
  if (!name) return null;
  return (
    <Text textStyle="sm" color="fg.muted" overflowWrap="anywhere">
      Dorsal {dorsalNumber} · {name}
    </Text>
  );
}
