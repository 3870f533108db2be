import { Box, Button, HStack, Spinner, Stack, Text } from "@chakra-ui/react";
import type { UserListItem } from "@dorsal/shared";
import { useState } from "react";
import { Link as RouterLink } from "react-router";
import { EmptyState } from "../../../components/ui/empty-state";
import { UserIcon } from "../../../components/ui/icons";
import { LoadError } from "../../../components/ui/load-error";
import { LoadMoreButton } from "../../../components/ui/load-more-button";
import { PageHeader } from "../../../components/ui/page-header";
import { useEvents } from "../../../lib/queries/events";
import { useUsers } from "../api/users";
import { CreateUserForm } from "./create-user-form";
import { DeleteUserDialog } from "./delete-user-dialog";
import { EditUserDialog } from "./edit-user-dialog";
import { UsersTable } from "./users-table";

/**
 * Spec §2.7 'Gestión de Usuarios': photographer accounts and every other user of the system. A list
 * that cannot be read says so in place, with 'Reintentar' (the spec's toast only repeated it).
 */
export function UserManagementPage() {
  const users = useUsers();
  const listed = users.data?.pages.flatMap((page) => page.users) ?? [];
  const events = useEvents();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<UserListItem | null>(null);
  const [editOpen, setEditOpen] = useState(false);
  const [deleting, setDeleting] = useState<UserListItem | null>(null);

  const edit = (user: UserListItem) => {
    setEditing(user);
    setEditOpen(true);
  };

  return (
    <Box>
      <PageHeader
        title="Gestión de Usuarios"
        subtitle="Administra fotógrafos y usuarios del sistema"
        actions={
          <HStack gap="2" wrap="wrap">
            {/* Applications end as photographer accounts, so their review is one step from here. */}
            <Button asChild variant="outline">
              <RouterLink to="/photographer-applications">Aplicaciones de fotógrafos</RouterLink>
            </Button>
            {!creating && (
              <Button colorPalette="blue" onClick={() => setCreating(true)}>
                Crear Usuario Fotógrafo
              </Button>
            )}
          </HStack>
        }
      />
      {/* Unmounted on close, which is what resets it (spec §4: success or 'Cancelar' close and reset). */}
      {creating && <CreateUserForm events={events.data ?? []} onClose={() => setCreating(false)} />}

      {users.isPending ? (
        <HStack gap="3" py="10" justify="center">
          <Spinner color="blue.500" />
          <Text>Cargando usuarios...</Text>
        </HStack>
      ) : users.isError ? (
        <LoadError title="Error cargando usuarios" query={users} />
      ) : listed.length === 0 ? (
        <EmptyState
          icon={<UserIcon />}
          title="No hay usuarios"
          description="Crea el primer usuario fotógrafo para comenzar"
        />
      ) : (
        <Stack gap="4">
          <UsersTable users={listed} onEdit={edit} onDelete={setDeleting} />
          <LoadMoreButton list={users} />
        </Stack>
      )}

      <EditUserDialog user={editing} open={editOpen} events={events.data ?? []} onClose={() => setEditOpen(false)} />
      <DeleteUserDialog user={deleting} onClose={() => setDeleting(null)} />
    </Box>
  );
}
