import { HStack, Link, List, Text } from "@chakra-ui/react";
import type { PerformanceStatsDto } from "@dorsal/shared";
import { Link as RouterLink } from "react-router";
import { EmptyState } from "../../../components/ui/empty-state";
import { formatCount } from "../../../lib/format";
import { Section } from "./section";

/** Why photos failed, most frequent first: every event's failed photos, to be retried on /processing. */
export function FailuresCard({ failures }: { failures: PerformanceStatsDto["failuresByReason"] }) {
  const total = failures.reduce((sum, failure) => sum + failure.count, 0);
  return (
    <Section
      title="Fallos por motivo"
      description="Fotos que no se pudieron procesar, en todos los eventos"
      aside={
        total > 0 ? (
          <Link asChild textStyle="sm" color="blue.700">
            <RouterLink to="/processing">Ver fotos con errores</RouterLink>
          </Link>
        ) : undefined
      }
      testId="failures-card"
    >
      {failures.length === 0 ? (
        <EmptyState
          variant="inline"
          title="Ninguna foto ha fallado"
          description="Si una foto no se puede procesar, aquí verás el motivo."
        />
      ) : (
        <List.Root as="ul" listStyleType="none" gap="2">
          {failures.map((failure) => (
            <List.Item key={failure.reason} data-testid="failure-reason">
              <HStack justify="space-between" align="flex-start" gap="3" w="full">
                <Text minW="0" wordBreak="break-word">
                  {failure.reason}
                </Text>
                <Text fontWeight="semibold" whiteSpace="nowrap">
                  {formatCount(failure.count)} {failure.count === 1 ? "foto" : "fotos"}
                </Text>
              </HStack>
            </List.Item>
          ))}
        </List.Root>
      )}
    </Section>
  );
}
