import { Alert, Button, Code, DataList, Dialog, Portal, Stack } from "@chakra-ui/react";
import { mailMessages } from "@dorsal/shared";
import type { ApprovedApplicationResponse } from "@dorsal/shared/applications";
import { toaster } from "../../../components/ui/toaster";
import { copyText } from "../../../components/ui/use-copy";

type Credentials = ApprovedApplicationResponse["credentials"];

/** The text the admin hands over (chat or email): everything the photographer needs to start. */
function handoverText(credentials: Credentials, loginUrl: string): string {
  return [
    `Hola ${credentials.name}, tu aplicación de fotógrafo fue aprobada.`,
    `Evento asignado: ${credentials.eventName}`,
    `Ingresa en ${loginUrl}`,
    `Correo: ${credentials.email}`,
    `Contraseña: ${credentials.password}`,
  ].join("\n");
}

async function copy(text: string) {
  if (await copyText(text)) toaster.create({ type: "success", title: "Credenciales copiadas" });
}

/**
 * Shown once after an approval: the server returns the generated password in that response only
 * (it stores the hash), so closing this dialog is the last chance to copy it. The applicant's email
 * says they were approved and where to sign in, never the password: the admin hands that over.
 */
export function CredentialsDialog({
  approval,
  onClose,
}: {
  approval: ApprovedApplicationResponse | null;
  onClose: () => void;
}) {
  const loginUrl = `${window.location.origin}/photographer-login`;
  const credentials = approval?.credentials ?? null;
  return (
    <Dialog.Root
      open={credentials !== null}
      onOpenChange={(details) => !details.open && onClose()}
      role="alertdialog"
      closeOnInteractOutside={false}
      placement="center"
      size={{ base: "xs", sm: "md" }}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>Cuenta de fotógrafo creada</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {credentials && (
                <Stack gap="4">
                  <Alert.Root status="warning" size="sm">
                    <Alert.Indicator />
                    <Alert.Title>Copia estas credenciales ahora: la contraseña no se vuelve a mostrar.</Alert.Title>
                  </Alert.Root>
                  {approval && (
                    <Alert.Root status={approval.mail.sent ? "info" : "warning"} size="sm" data-testid="approval-mail">
                      <Alert.Indicator />
                      <Alert.Description>
                        {approval.mail.sent
                          ? `Le enviamos un correo a ${approval.mail.to} con la aprobación y el acceso, sin la contraseña: envíasela tú.`
                          : `${mailMessages.notSent} a ${approval.mail.to}: envíale también la aprobación.`}
                      </Alert.Description>
                    </Alert.Root>
                  )}
                  <DataList.Root orientation="horizontal" data-testid="photographer-credentials">
                    <DataList.Item>
                      <DataList.ItemLabel>Nombre</DataList.ItemLabel>
                      <DataList.ItemValue>{credentials.name}</DataList.ItemValue>
                    </DataList.Item>
                    <DataList.Item>
                      <DataList.ItemLabel>Evento</DataList.ItemLabel>
                      <DataList.ItemValue>{credentials.eventName}</DataList.ItemValue>
                    </DataList.Item>
                    <DataList.Item>
                      <DataList.ItemLabel>Correo</DataList.ItemLabel>
                      <DataList.ItemValue>
                        <Code data-testid="credentials-email">{credentials.email}</Code>
                      </DataList.ItemValue>
                    </DataList.Item>
                    <DataList.Item>
                      <DataList.ItemLabel>Contraseña</DataList.ItemLabel>
                      <DataList.ItemValue>
                        <Code data-testid="credentials-password">{credentials.password}</Code>
                      </DataList.ItemValue>
                    </DataList.Item>
                    <DataList.Item>
                      <DataList.ItemLabel>Acceso</DataList.ItemLabel>
                      <DataList.ItemValue wordBreak="break-all">{loginUrl}</DataList.ItemValue>
                    </DataList.Item>
                  </DataList.Root>
                </Stack>
              )}
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                Cerrar
              </Button>
              <Button colorPalette="blue" onClick={() => credentials && void copy(handoverText(credentials, loginUrl))}>
                Copiar credenciales
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
