import { Box, Button, HStack, Stack, Table, Text } from "@chakra-ui/react";
import type { UserListItem } from "@dorsal/shared";
import { PencilIcon, TrashIcon } from "../../../components/ui/icons";
import { TableScrollArea } from "../../../components/ui/table-scroll-area";
import { formatDateTime } from "../../../lib/format";
import { RoleBadge } from "./role-badge";

export const displayName = (user: UserListItem) => user.name || "Sin nombre";

/** Spec §2.7: a photographer shows their latest event or 'Sin eventos asignados'; other roles a dash. */
function AssignedEvent({ user }: { user: UserListItem }) {
  if (user.role !== "photographer") return <Text color="fg.muted">—</Text>;
  if (!user.latestEventName) {
    return (
      <Text color="fg.muted" fontStyle="italic">
        Sin eventos asignados
      </Text>
    );
  }
  return <Text>{user.latestEventName}</Text>;
}

const lastLogin = (user: UserListItem) => (user.lastLogin ? formatDateTime(user.lastLogin) : "Nunca");

interface RowActions {
  onEdit: (user: UserListItem) => void;
  onDelete: (user: UserListItem) => void;
}

function Actions({ user, onEdit, onDelete }: RowActions & { user: UserListItem }) {
  return (
    <HStack gap="2" justify="flex-end">
      <Button size="xs" variant="outline" onClick={() => onEdit(user)} aria-label={`Editar ${displayName(user)}`}>
        <PencilIcon /> Editar
      </Button>
      {/* Spec §6: admins cannot be deleted from the interface. */}
      {user.role !== "admin" && (
        <Button
          size="xs"
          variant="outline"
          colorPalette="red"
          onClick={() => onDelete(user)}
          aria-label={`Eliminar ${displayName(user)}`}
        >
          <TrashIcon /> Eliminar
        </Button>
      )}
    </HStack>
  );
}

function Identity({ user }: { user: UserListItem }) {
  return (
    <Box minW="0">
      <Text fontWeight="medium">{displayName(user)}</Text>
      <Text textStyle="sm" color="fg.muted" wordBreak="break-all">
        {user.email}
      </Text>
    </Box>
  );
}

/**
 * The user list: a table from tablets up; on phones six columns do not fit, so each user becomes a
 * card with the same fields (only one of the two is displayed, so each control exists once for
 * assistive technology).
 */
export function UsersTable({ users, ...actions }: RowActions & { users: UserListItem[] }) {
  return (
    <>
      <TableScrollArea label="Usuarios" borderWidth="1px" borderRadius="md" bg="white" hideBelow="md">
        <Table.Root size="sm" aria-label="Usuarios">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Usuario</Table.ColumnHeader>
              <Table.ColumnHeader>Rol</Table.ColumnHeader>
              <Table.ColumnHeader>Evento Asignado</Table.ColumnHeader>
              <Table.ColumnHeader>Creado</Table.ColumnHeader>
              <Table.ColumnHeader>Último acceso</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Acciones</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {users.map((user) => (
              <Table.Row key={user.id} data-testid="user-row">
                <Table.Cell>
                  <Identity user={user} />
                </Table.Cell>
                <Table.Cell>
                  <RoleBadge role={user.role} />
                </Table.Cell>
                <Table.Cell>
                  <AssignedEvent user={user} />
                </Table.Cell>
                <Table.Cell whiteSpace="nowrap">{formatDateTime(user.createdAt)}</Table.Cell>
                <Table.Cell whiteSpace="nowrap">{lastLogin(user)}</Table.Cell>
                <Table.Cell>
                  <Actions user={user} {...actions} />
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </TableScrollArea>
      <Stack as="ul" gap="3" hideFrom="md" aria-label="Usuarios">
        {users.map((user) => (
          <Box
            as="li"
            key={user.id}
            data-testid="user-card"
            listStyleType="none"
            p="4"
            borderWidth="1px"
            borderRadius="lg"
            bg="white"
          >
            <HStack justify="space-between" align="flex-start" gap="3">
              <Identity user={user} />
              <RoleBadge role={user.role} />
            </HStack>
            <Stack gap="1" mt="3" textStyle="sm">
              <HStack gap="2" align="baseline">
                <Text color="fg.muted" flexShrink="0">
                  Evento Asignado:
                </Text>
                <AssignedEvent user={user} />
              </HStack>
              <Text>
                <Text as="span" color="fg.muted">
                  Creado:
                </Text>{" "}
                {formatDateTime(user.createdAt)}
              </Text>
              <Text>
                <Text as="span" color="fg.muted">
                  Último acceso:
                </Text>{" "}
                {lastLogin(user)}
              </Text>
            </Stack>
            <Box mt="3">
              <Actions user={user} {...actions} />
            </Box>
          </Box>
        ))}
      </Stack>
    </>
  );
}
