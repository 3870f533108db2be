import { EmptyState as ChakraEmptyState, VStack } from "@chakra-ui/react";
import { type ReactNode, useId } from "react";

interface EmptyStateProps {
  title: string;
  description?: string;
  /** An icon from components/ui/icons, drawn large and muted above the title. */
  icon?: ReactNode;
  /** What to do about it, usually one button or link. */
  action?: ReactNode;
  /** `page`: a framed block standing on its own; `inline`: inside a card that frames it already. */
  variant?: "page" | "inline";
  /** The title's heading level where the page's outline needs one other than h3 (a whole-page state is h1). */
  titleAs?: "h1" | "h2" | "h3";
}

/**
 * The one way a screen says it has nothing to show yet: what is missing, why it matters and, when
 * there is one, the next step. It is a named region, so assistive technology can find it.
 */
export function EmptyState({ title, description, icon, action, variant = "page", titleAs = "h3" }: EmptyStateProps) {
  const titleId = useId();
  const framed = variant === "page";
  return (
    <ChakraEmptyState.Root
      as="section"
      aria-labelledby={titleId}
      size={framed ? "md" : "sm"}
      borderWidth={framed ? "1px" : undefined}
      borderStyle="dashed"
      borderRadius="lg"
      bg={framed ? "white" : undefined}
    >
      <ChakraEmptyState.Content>
        {icon && <ChakraEmptyState.Indicator>{icon}</ChakraEmptyState.Indicator>}
        <VStack textAlign="center" gap="1">
          <ChakraEmptyState.Title as={titleAs} id={titleId}>
            {title}
          </ChakraEmptyState.Title>
          {description && (
            <ChakraEmptyState.Description maxW="md" color="fg.muted">
              {description}
            </ChakraEmptyState.Description>
          )}
        </VStack>
        {action}
      </ChakraEmptyState.Content>
    </ChakraEmptyState.Root>
  );
}
