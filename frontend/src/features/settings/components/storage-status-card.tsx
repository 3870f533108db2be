import { Badge, Card, DataList, Heading, HStack, Skeleton, Text } from "@chakra-ui/react";
import { LoadError } from "../../../components/ui/load-error";
import { formatBytes, formatCount } from "../../../lib/format";
import { useStorageStatus } from "../api/storage-status";

const credentialLabels = { "iam-role": "Rol IAM de la función", local: "Almacenamiento local integrado" } as const;

/** Spec §2.7/§4 storage status: connected (active) or disconnected (inactive, with the error). */
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
              {data.connected ? "Conectado" : "Desconectado"}
            </Badge>
          )}
        </HStack>
      </Card.Header>
      <Card.Body>
        {status.isPending && <Skeleton height="24" />}
        {status.isError && <LoadError title="No se pudo consultar el almacenamiento" message={status.error.message} />}
        {data && (
          <DataList.Root orientation="horizontal">
            <DataList.Item>
              <DataList.ItemLabel>Bucket</DataList.ItemLabel>
              <DataList.ItemValue wordBreak="break-all">{data.bucketName}</DataList.ItemValue>
            </DataList.Item>
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
            <DataList.Item>
              <DataList.ItemLabel>Credenciales</DataList.ItemLabel>
              <DataList.ItemValue>
                {credentialLabels[data.credentialsType]}
                {data.credentialsConfigured ? "" : " (sin configurar)"}
              </DataList.ItemValue>
            </DataList.Item>
          </DataList.Root>
        )}
        {data?.error && (
          <Text color="red.600" textStyle="sm" mt="3">
            {data.error}
          </Text>
        )}
      </Card.Body>
    </Card.Root>
  );
}
