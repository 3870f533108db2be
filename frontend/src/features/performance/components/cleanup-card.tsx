import { Button, Text } from "@chakra-ui/react";
import { useState } from "react";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { toaster } from "../../../components/ui/toaster";
import { cleanupMessage, performanceText } from "../api/format";
import { useCleanupTemp } from "../api/performance";
import { Section } from "./section";

/**
 * 'Limpiar archivos temporales' (spec §2.7): removes the download ZIPs whose links can no longer
 * fetch them. It asks first, then says what it removed; a failure is a toast (spec §2.7).
 */
export function CleanupCard() {
  const [confirming, setConfirming] = useState(false);
  const cleanup = useCleanupTemp();
  const [lastResult, setLastResult] = useState<string | null>(null);

  const confirm = () => {
    setConfirming(false);
    cleanup.mutate(undefined, {
      onSuccess: (result) => {
        const message = cleanupMessage(result);
        setLastResult(message);
        toaster.create({ type: "success", title: "Archivos temporales", description: message });
      },
    });
  };

  return (
    <Section title="Archivos temporales" testId="cleanup-card">
      <Text textStyle="sm" color="fg.muted" mb="4">
        Las descargas de varias fotos se preparan como un ZIP cuyo enlace vence a los pocos minutos. Limpiar borra los
        ZIP que ya ningún enlace puede descargar; las fotos y las descargas en curso no se tocan.
      </Text>
      <Button
        colorPalette="red"
        variant="outline"
        alignSelf="flex-start"
        onClick={() => setConfirming(true)}
        loading={cleanup.isPending}
        loadingText={performanceText.cleaning}
      >
        {performanceText.cleanup}
      </Button>
      {lastResult && (
        <Text textStyle="sm" mt="3" data-testid="cleanup-result">
          Última limpieza: {lastResult}.
        </Text>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="¿Limpiar los archivos temporales?"
        confirmLabel="Limpiar"
        onConfirm={confirm}
      >
        <Text>
          Se borrarán los ZIP de descarga cuyos enlaces ya vencieron. No se puede deshacer, pero no afecta a las fotos
          ni a las descargas que los compradores aún pueden hacer.
        </Text>
      </ConfirmDialog>
    </Section>
  );
}
