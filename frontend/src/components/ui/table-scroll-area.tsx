import { Table, type TableScrollAreaProps } from "@chakra-ui/react";

/**
 * A table that scrolls sideways on narrow screens. Keyboard users scroll it too: it takes focus
 * (WCAG 2.1.1; axe-core's scrollable-region-focusable) and is announced as a region named `label`.
 * Positioned, so a visually hidden header (absolutely positioned) scrolls with the table instead of
 * widening the page.
 */
export function TableScrollArea({ label, ...props }: TableScrollAreaProps & { label: string }) {
  return (
    <Table.ScrollArea
      tabIndex={0}
      role="region"
      aria-label={label}
      focusVisibleRing="inside"
      position="relative"
      {...props}
    />
  );
}
