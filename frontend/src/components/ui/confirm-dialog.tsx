import { Button, Dialog, Portal } from "@chakra-ui/react";
import { type ReactNode, useRef } from "react";

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** What happens, and what does not, when the action is confirmed. */
  children: ReactNode;
  confirmLabel: ReactNode;
  onConfirm: () => void;
  /** Red for what cannot be undone; blue for what only starts work. */
  colorPalette?: "red" | "blue";
  /** While the action runs: the confirm button spins with `pendingText` and Cancel waits. */
  pending?: boolean;
  pendingText?: string;
  cancelLabel?: ReactNode;
}

/**
 * The one question asked before an action a stray tap should not take: an alert dialog that
 * opens with Cancel focused, so Enter or a second tap never confirms by accident, centred and
 * inset from a phone's edges, its two buttons stacked full width there.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  children,
  confirmLabel,
  onConfirm,
  colorPalette = "red",
  pending = false,
  pendingText,
  cancelLabel = "Cancelar",
}: ConfirmDialogProps) {
  const cancelButton = useRef<HTMLButtonElement>(null);
  return (
    <Dialog.Root
      role="alertdialog"
      open={open}
      onOpenChange={(details) => onOpenChange(details.open)}
      initialFocusEl={() => cancelButton.current}
      placement="center"
      size={{ base: "xs", sm: "md" }}
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>{children}</Dialog.Body>
            <Dialog.Footer flexDirection={{ base: "column-reverse", sm: "row" }} alignItems="stretch">
              <Button ref={cancelButton} variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
                {cancelLabel}
              </Button>
              <Button colorPalette={colorPalette} onClick={onConfirm} loading={pending} loadingText={pendingText}>
                {confirmLabel}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
