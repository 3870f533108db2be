import { Stack } from "@chakra-ui/react";
import type { ReactNode } from "react";

/** A screen's last line: when its figures were read, left; what refreshes them, right (stacked on phones). */
export function PageFooter({ children }: { children: ReactNode }) {
  return (
    <Stack
      as="footer"
      direction={{ base: "column", md: "row" }}
      justify="space-between"
      align={{ base: "stretch", md: "center" }}
      gap="3"
      borderTopWidth="1px"
      pt="4"
    >
      {children}
    </Stack>
  );
}
