import { Button, Card, Grid, Heading, Stack, Text } from "@chakra-ui/react";
import { Link as RouterLink } from "react-router";
import { PageHeader } from "../../../components/ui/page-header";
import { ChangePasswordCard } from "./change-password-card";
import { ResetSalesCard } from "./reset-sales-card";
import { StorageStatusCard } from "./storage-status-card";

/**
 * Spec §2.7 'Settings'. The user list with create and delete is not repeated here: the user
 * management screen is the one place for it, and this screen links to it, as it links to the
 * emails Dorsal sent (not in the spec's header menu).
 */
export function SettingsPage() {
  return (
    <>
      <PageHeader title="Configuración" subtitle="Cuenta de administrador, ventas, almacenamiento y correos" />
      <Grid templateColumns={{ base: "1fr", lg: "repeat(2, minmax(0, 1fr))" }} gap="6" alignItems="start">
        <ChangePasswordCard />
        <Stack gap="6">
          <StorageStatusCard />
          <ResetSalesCard />
          <Card.Root as="section" aria-labelledby="users-title">
            <Card.Header>
              <Heading as="h2" size="lg" id="users-title">
                Usuarios
              </Heading>
            </Card.Header>
            <Card.Body>
              <Text color="fg.muted" mb="4">
                Crea, edita y elimina fotógrafos y usuarios del sistema.
              </Text>
              <Button asChild variant="outline" alignSelf="flex-start">
                <RouterLink to="/user-management">Gestionar usuarios</RouterLink>
              </Button>
            </Card.Body>
          </Card.Root>
          <Card.Root as="section" aria-labelledby="outbox-title">
            <Card.Header>
              <Heading as="h2" size="lg" id="outbox-title">
                Correos
              </Heading>
            </Card.Header>
            <Card.Body>
              <Text color="fg.muted" mb="4">
                Los enlaces de descarga, los códigos y las respuestas a fotógrafos que Dorsal envió por correo.
              </Text>
              <Button asChild variant="outline" alignSelf="flex-start">
                <RouterLink to="/admin/outbox">Correos enviados</RouterLink>
              </Button>
            </Card.Body>
          </Card.Root>
        </Stack>
      </Grid>
    </>
  );
}
