import { Alert, Badge, Box, Button, HStack, List, Progress, Stack, Text } from "@chakra-ui/react";
import { messages, type ZipBatchStatusResponse } from "@dorsal/shared";
import { driveMessages } from "@dorsal/shared/drive";
import { formatCount } from "../../../lib/format";
import { zipBatchPercent, zipCheckFailedMessage, zipStatusLabels, zipStatusPalettes } from "../api/zip-rules";

function SkippedEntries({ batch }: { batch: ZipBatchStatusResponse }) {
  if (batch.skippedFiles === 0) return null;
  const unlisted = batch.skippedFiles - batch.skipped.length;
  return (
    <Box>
      <Text fontWeight="semibold" textStyle="sm" mb="1">
        Archivos omitidos
      </Text>
      <List.Root ps="4" gap="1" textStyle="sm" aria-label="Archivos omitidos">
        {batch.skipped.map((entry) => (
          <List.Item key={`${entry.name}:${entry.reason}`} wordBreak="break-all">
            {entry.name}: {entry.reason}
          </List.Item>
        ))}
      </List.Root>
      {unlisted > 0 && (
        <Text color="fg.muted" textStyle="sm" mt="1">
          y {formatCount(unlisted)} más
        </Text>
      )}
    </Box>
  );
}

interface ZipBatchProgressProps {
  batch: ZipBatchStatusResponse | null;
  checkFailed: boolean;
  onRecheck: () => void;
  /** A drive folder's import is the same kind of batch; only its words differ. */
  source?: "zip" | "drive";
}

const sourceTexts = {
  zip: {
    progress: "Progreso del ZIP",
    brought: "Extraídas",
    failed: messages.zipProcessingError,
    done: "Las fotos del ZIP ya están en el evento.",
    labels: zipStatusLabels,
  },
  drive: {
    progress: "Progreso de la importación",
    brought: "Importadas",
    failed: driveMessages.importError,
    done: "Las fotos de la carpeta ya están en el evento.",
    labels: { ...zipStatusLabels, uploading: "En cola", extracting: "Importando" },
  },
};

/** A batch being imported: its state in Spanish, its counters, its progress and what was skipped and why. */
export function ZipBatchProgress({ batch, checkFailed, onRecheck, source = "zip" }: ZipBatchProgressProps) {
  const texts = sourceTexts[source];
  const status = batch?.status ?? "uploading";
  const finished = status === "completed" || status === "error";
  const counts: [string, number][] = batch
    ? [
        ["Total", batch.totalFiles],
        [texts.brought, batch.extractedFiles],
        ["Procesadas", batch.processedFiles],
        ["Omitidas", batch.skippedFiles],
      ]
    : [];
  return (
    <Stack gap="3" aria-live="polite">
      <HStack gap="2" wrap="wrap">
        <Text>Estado:</Text>
        <Badge colorPalette={zipStatusPalettes[status]} size="lg">
          {texts.labels[status]}
        </Badge>
      </HStack>
      {batch && (
        <>
          <Progress.Root
            value={zipBatchPercent(batch)}
            colorPalette={zipStatusPalettes[status]}
            striped={!finished}
            animated={!finished}
          >
            <Progress.Track aria-label={texts.progress}>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
          <List.Root
            variant="plain"
            display="flex"
            flexDirection="row"
            flexWrap="wrap"
            columnGap="4"
            rowGap="1"
            textStyle="sm"
          >
            {counts.map(([label, value]) => (
              <List.Item key={label}>
                {label}: {formatCount(value)}
              </List.Item>
            ))}
          </List.Root>
          <SkippedEntries batch={batch} />
        </>
      )}
      {status === "error" && (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{texts.failed}</Alert.Title>
            {batch?.error && batch.error !== texts.failed && <Alert.Description>{batch.error}</Alert.Description>}
          </Alert.Content>
        </Alert.Root>
      )}
      {status === "completed" && (
        <Text color="green.700" textStyle="sm">
          {texts.done}
        </Text>
      )}
      {checkFailed && (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{zipCheckFailedMessage}</Alert.Title>
          </Alert.Content>
          <Button size="sm" variant="outline" onClick={onRecheck} alignSelf="center">
            Reintentar
          </Button>
        </Alert.Root>
      )}
    </Stack>
  );
}
