import { Card, DataList, Heading, List, Skeleton, Stack, Text } from "@chakra-ui/react";
import type { StorageStatusDto } from "@dorsal/shared";
import type { ReactNode } from "react";
import { LoadError } from "../../../components/ui/load-error";
import { PageHeader } from "../../../components/ui/page-header";
import { formatBytes, formatCount } from "../../../lib/format";
import { useStorageStatus } from "../api/storage-status";
import { MigrateCommand } from "./migrate-command";

/**
 * Spec §2.1 /cloud-storage-config: where this installation keeps its photos and data, and how a
 * local event moves to AWS. The move itself is `npm run migrate`, run where the data is (spec
 * departure: docs/spec-departures.md); this screen gives the command for this installation.
 */
export function CloudStoragePage() {
  const status = useStorageStatus();
  const data = status.data;
  return (
    <>
      <PageHeader
        title="Almacenamiento en la nube"
        subtitle="Dónde están las fotos y cómo pasar un evento local a AWS"
      />
      {status.isPending && <Skeleton height="40" />}
      {status.isError && <LoadError title="No se pudo consultar el almacenamiento" query={status} />}
      {data && (
        <Stack gap="6" maxW="4xl">
          <WhereCard status={data} />
          {data.location.runtime === "local" ? <LocalSteps status={data} /> : <AwsSteps status={data} />}
        </Stack>
      )}
    </>
  );
}

function WhereCard({ status }: { status: StorageStatusDto }) {
  const { location } = status;
  const count = (files: number, size: number, truncated: boolean) =>
    `${truncated ? "más de " : ""}${formatCount(files)} archivos, ${truncated ? "más de " : ""}${formatBytes(size)}`;
  return (
    <Card.Root as="section" aria-labelledby="where-title">
      <Card.Header>
        <Heading as="h2" size="lg" id="where-title">
          {location.runtime === "local" ? "En este equipo" : "En AWS"}
        </Heading>
      </Card.Header>
      <Card.Body>
        {!status.connected && (
          <Text color="red.700" mb="4">
            El almacenamiento no responde: las cifras volverán cuando se recupere la conexión.
          </Text>
        )}
        <DataList.Root
          orientation="vertical"
          display="grid"
          gridTemplateColumns={{ base: "1fr", md: "repeat(2, minmax(0, 1fr))" }}
          gap="4"
        >
          {location.dataDir && <Item label="Carpeta de datos" value={location.dataDir} />}
          {location.region && <Item label="Región" value={location.region} />}
          <Item label="Tabla" value={location.tableName} />
          <Item label="Originales" value={location.buckets.originals} />
          {status.connected && (
            <Item label="Fotos originales" value={count(status.totalFiles, status.totalSize, status.truncated)} />
          )}
          <Item label="Copias web y miniaturas" value={location.buckets.derived} />
          {status.connected && (
            <Item
              label="Copias guardadas"
              value={count(location.derivedFiles, location.derivedSize, location.derivedTruncated)}
            />
          )}
        </DataList.Root>
      </Card.Body>
    </Card.Root>
  );
}

function Item({ label, value }: { label: string; value: string }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel>{label}</DataList.ItemLabel>
      <DataList.ItemValue overflowWrap="anywhere">{value}</DataList.ItemValue>
    </DataList.Item>
  );
}

function LocalSteps({ status }: { status: StorageStatusDto }) {
  return (
    <MoveCard title="Pasar este evento a AWS">
      <List.Root as="ol" gap="3" ps="5">
        <List.Item>
          Despliega en AWS esta misma versión de Dorsal (<code>npx cdk deploy --all</code>, docs/deploy.md).
        </List.Item>
        <List.Item>Detén Dorsal en este equipo (Ctrl-C): la migración no copia datos que cambian.</List.Item>
        <List.Item>
          Ejecuta este comando en este equipo, con tus credenciales de AWS. Copia la tabla y todos los archivos y al
          final comprueba que todo llegó igual:
          <Stack mt="2">
            <MigrateCommand command={status.location.migrateCommand} />
          </Stack>
        </List.Item>
        <List.Item>Si se interrumpe, vuelve a ejecutarlo: sigue donde quedó y no duplica nada.</List.Item>
        <List.Item>Cuando diga «Verificación correcta», apunta tu dominio a AWS.</List.Item>
      </List.Root>
    </MoveCard>
  );
}

function AwsSteps({ status }: { status: StorageStatusDto }) {
  return (
    <MoveCard title="Traer un evento de un equipo local">
      <Text mb="3">
        En el equipo donde corría Dorsal, con Dorsal detenido y credenciales de AWS, ejecuta este comando desde la
        carpeta de Dorsal (cambia <code>./.data</code> si los datos están en otra carpeta):
      </Text>
      <MigrateCommand command={status.location.migrateCommand} />
    </MoveCard>
  );
}

function MoveCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card.Root as="section" aria-labelledby="move-title">
      <Card.Header>
        <Heading as="h2" size="lg" id="move-title">
          {title}
        </Heading>
      </Card.Header>
      <Card.Body>{children}</Card.Body>
    </Card.Root>
  );
}
