import { Button, Card, Heading, SimpleGrid, Text } from "@chakra-ui/react";
import { Link as RouterLink } from "react-router";

export interface LinkCard {
  title: string;
  text: string;
  action: string;
  to: string;
}

/** A row of cards, each a short explanation and a button to another screen. */
export function LinkCards({ cards, emphasis }: { cards: readonly LinkCard[]; emphasis: "solid" | "outline" }) {
  return (
    <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
      {cards.map((card) => (
        <Card.Root key={card.to} size={emphasis === "solid" ? "sm" : "md"}>
          <Card.Body gap={emphasis === "solid" ? "1" : "2"}>
            <Heading as="h2" size="md">
              {card.title}
            </Heading>
            <Text color="fg.muted" textStyle="sm">
              {card.text}
            </Text>
          </Card.Body>
          <Card.Footer>
            <Button asChild size="sm" variant={emphasis} {...(emphasis === "solid" ? { colorPalette: "blue" } : {})}>
              <RouterLink to={card.to}>{card.action}</RouterLink>
            </Button>
          </Card.Footer>
        </Card.Root>
      ))}
    </SimpleGrid>
  );
}
