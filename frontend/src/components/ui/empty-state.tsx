import { EmptyState as ChakraEmptyState, VStack } from "@chakra-ui/react";
import { type ReactNode, useId } from "react";

interface EmptyStateProps {
  title: string;
  description?: string;
  /** An icon from components/ui/icons, drawn large and muted above the title. */
  icon?: ReactNode;
  /** What to do about it, usually one button or link. */
  action?: ReactNode;
  /** Suggestions between the description and the action (what 'Sin resultados' says to try). */
  children?: ReactNode;
  /**
   * `page`: a framed block under the page's title (its own title an h2); `inline`: inside a card
   * that frames and titles it already (an h3).
   */
  variant?: "page" | "inline";
  /** A state that is the whole page (the 404 page) titles it: h1. */
  titleAs?: "h1" | "h2" | "h3";
}

/**
 * The one way a screen says it has nothing to show yet: what is missing, why it matters and, when
 * there is one, the next step. It is a named region, so assistive technology can find it.
 */
export function EmptyState({ title, description, icon, action, children, variant = "page", titleAs }: EmptyStateProps) {
  const titleId = useId();
  const framed = variant === "page";
  const heading = titleAs ?? (framed ? "h2" : "h3");
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
          <ChakraEmptyState.Title as={heading} id={titleId} textStyle={framed ? undefined : "sm"}>
            {title}
          </ChakraEmptyState.Title>
          {description && (
            <ChakraEmptyState.Description maxW="md" color="fg.muted">
              {description}
            </ChakraEmptyState.Description>
          )}
        </VStack>
        {children}
        {action}
      </ChakraEmptyState.Content>
    </ChakraEmptyState.Root>
  );
}
