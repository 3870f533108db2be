import { Card, DataList, Heading, HStack, Skeleton, Stack, Text } from "@chakra-ui/react";
import { type ReactNode, useId } from "react";
import { LoadError } from "../../../components/ui/load-error";

interface SectionProps {
  title: string;
  /** What the figures are and how fresh (a line under the title). */
  description?: string;
  /** A link or badge at the title's end. */
  aside?: ReactNode;
  children: ReactNode;
  testId?: string;
}

/** One card of the screen: a titled region, so assistive technology can jump between them. */
export function Section({ title, description, aside, children, testId }: SectionProps) {
  const id = useId();
  return (
    <Card.Root as="section" aria-labelledby={id} data-testid={testId} minW="0" size={{ base: "sm", md: "md" }}>
      <Card.Header>
        <HStack justify="space-between" align="flex-start" gap="3" wrap="wrap">
          <Stack gap="0.5" minW="0">
            <Heading as="h2" size="md" id={id}>
              {title}
            </Heading>
            {description && (
              <Text textStyle="sm" color="fg.muted">
                {description}
              </Text>
            )}
          </Stack>
          {aside}
        </HStack>
      </Card.Header>
      <Card.Body>{children}</Card.Body>
    </Card.Root>
  );
}

/** What a failed or pending read shows in place of a card's figures; null once the data is there. */
export function ReadState({
  query,
  title,
  height = "32",
}: {
  query: { isPending: boolean; isError: boolean; error: Error | null; refetch: () => unknown; isFetching: boolean };
  title: string;
  height?: string;
}) {
  if (query.isError) return <LoadError title={title} query={query} />;
  if (query.isPending) return <Skeleton height={height} />;
  return null;
}

/** A figure: its value, and under it why it is missing or what it covers. */
export interface Figure {
  label: string;
  value: ReactNode;
  note?: string;
}

/** A card's figures as label and value rows, each value with its note under it. */
export function Figures({ items, testId }: { items: Figure[]; testId?: string }) {
  return (
    <DataList.Root orientation="horizontal" gap="3" data-testid={testId}>
      {items.map((item) => (
        <DataList.Item key={item.label}>
          <DataList.ItemLabel minWidth={{ base: "36", md: "44" }}>{item.label}</DataList.ItemLabel>
          <DataList.ItemValue>
            <Stack gap="0">
              <Text as="span" fontWeight="medium">
                {item.value}
              </Text>
              {item.note && (
                <Text as="span" textStyle="xs" color="fg.muted">
                  {item.note}
                </Text>
              )}
            </Stack>
          </DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList.Root>
  );
}
