import { Badge, Button, Card, DataList, Heading, HStack, Skeleton, Stack, Text } from "@chakra-ui/react";
import { Link as RouterLink } from "react-router";
import { LoadError } from "../../../components/ui/load-error";
import { formatBytes, formatCount } from "../../../lib/format";
import { useStorageStatus } from "../api/storage-status";
import { MigrateCommand } from "./migrate-command";

/**
 * Spec §2.7/§4 storage status, in the organizer's words: whether photos can be stored, how many are,
 * where, and the command that moves a local installation to AWS (its steps: /cloud-storage-config).
 * The credentials and the store's own error text are technical details for the ops screens (issue 17).
 */
export function StorageStatusCard() {
  const status = useStorageStatus();
  const data = status.data;

  return (
    <Card.Root as="section" aria-labelledby="storage-title" data-testid="storage-status">
      <Card.Header>
        <HStack justify="space-between" gap="3" wrap="wrap">
          <Heading as="h2" size="lg" id="storage-title">
            Almacenamiento
          </Heading>
          {data && (
            <Badge colorPalette={data.connected ? "green" : "red"} size="lg">
              {data.connected ? "Almacenamiento conectado" : "Almacenamiento desconectado"}
            </Badge>
          )}
        </HStack>
      </Card.Header>
      <Card.Body>
        {status.isPending && <Skeleton height="16" />}
        {status.isError && <LoadError title="No se pudo consultar el almacenamiento" query={status} />}
        {data?.connected && (
          <DataList.Root orientation="horizontal">
            <DataList.Item>
              <DataList.ItemLabel>Archivos</DataList.ItemLabel>
              <DataList.ItemValue data-testid="storage-files">
                {data.truncated ? `más de ${formatCount(data.totalFiles)}` : formatCount(data.totalFiles)}
              </DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel>Tamaño</DataList.ItemLabel>
              <DataList.ItemValue>
                {data.truncated ? `más de ${formatBytes(data.totalSize)}` : formatBytes(data.totalSize)}
              </DataList.ItemValue>
            </DataList.Item>
          </DataList.Root>
        )}
        {data && !data.connected && (
          <Text color="red.700">
            No se pueden guardar ni mostrar fotos hasta que vuelva la conexión. Se comprueba de nuevo cada 30 segundos.
          </Text>
        )}
        {data && (
          <Stack gap="3" mt="4">
            <Text data-testid="storage-where" textStyle="sm" overflowWrap="anywhere">
              {data.location.dataDir
                ? `Los datos están en este equipo, en ${data.location.dataDir}. Para pasarlos a AWS:`
                : `Los datos están en AWS (${data.location.region}). Para traer un evento de un equipo local:`}
            </Text>
            <MigrateCommand command={data.location.migrateCommand} />
            <Button asChild variant="outline" alignSelf="flex-start">
              <RouterLink to="/cloud-storage-config">Cómo migrar, paso a paso</RouterLink>
            </Button>
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}
