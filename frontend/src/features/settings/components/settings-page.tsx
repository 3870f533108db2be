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
          <LinkCard
            id="users-title"
            title="Usuarios"
            description="Crea, edita y elimina fotógrafos y usuarios del sistema."
            to="/user-management"
            action="Gestionar usuarios"
          />
          <LinkCard
            id="outbox-title"
            title="Correos"
            description="Los enlaces de descarga, los códigos y las respuestas a fotógrafos que Dorsal envió por correo."
            to="/admin/outbox"
            action="Correos enviados"
          />
        </Stack>
      </Grid>
    </>
  );
}

/** A settings section that lives on a screen of its own: what it is for, and the way there. */
function LinkCard(props: { id: string; title: string; description: string; to: string; action: string }) {
  return (
    <Card.Root as="section" aria-labelledby={props.id}>
      <Card.Header>
        <Heading as="h2" size="lg" id={props.id}>
          {props.title}
        </Heading>
      </Card.Header>
      <Card.Body>
        <Text color="fg.muted" mb="4">
          {props.description}
        </Text>
        <Button asChild variant="outline" alignSelf="flex-start">
          <RouterLink to={props.to}>{props.action}</RouterLink>
        </Button>
      </Card.Body>
    </Card.Root>
  );
}
