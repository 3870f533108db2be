import { Card, Skeleton, Stat } from "@chakra-ui/react";

interface StatCardProps {
  label: string;
  value: string | undefined;
  /** What the figure is compared with; undefined while the stats load. */
  caption: string | undefined;
  accent: string;
}

export function StatCard({ label, value, caption, accent }: StatCardProps) {
  return (
    <Card.Root borderTopWidth="4px" borderTopColor={accent} data-testid="stat-card">
      <Card.Body>
        <Stat.Root>
          <Stat.Label>{label}</Stat.Label>
          {/* A <dl> holds only <dt>/<dd>: the placeholders and the caption are <dd>s too. */}
          {value === undefined ? (
            <Skeleton as="dd" height="9" width="24" mt="1" />
          ) : (
            <Stat.ValueText fontSize={{ base: "2xl", md: "3xl" }}>{value}</Stat.ValueText>
          )}
          {caption === undefined ? (
            <Skeleton as="dd" height="4" width="32" mt="2" />
          ) : (
            <Stat.HelpText as="dd">{caption}</Stat.HelpText>
          )}
        </Stat.Root>
      </Card.Body>
    </Card.Root>
  );
}
