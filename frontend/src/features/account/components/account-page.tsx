import { Badge, Box, Button, Card, Heading, HStack, Spinner, Stack, Text } from "@chakra-ui/react";
import type { AccountCode, AccountPurchase } from "@dorsal/shared/account";
import { accountMessages } from "@dorsal/shared/account";
import { Link as RouterLink } from "react-router";
import { EmptyState } from "../../../components/ui/empty-state";
import { LoadError } from "../../../components/ui/load-error";
import { LoadMoreButton } from "../../../components/ui/load-more-button";
import { PageHeader } from "../../../components/ui/page-header";
import { formatCop, formatCounted, formatDateTime } from "../../../lib/format";
import { useLogout } from "../../../lib/use-logout";
import { useAccount, useCodes, usePurchases, useResendVerification, useSendPurchaseLink } from "../api/account";

/**
 * 'Tu cuenta' (spec §2.1, the `user` role's home; athletes reach it from the header): the account's
 * email and whether it is verified; once it is, what was bought with that email and the download
 * codes sent to it. The server refuses the lists until then (another person may have typed the address).
 */
export function AccountPage() {
  const logout = useLogout();
  const account = useAccount();
  const verified = Boolean(account.data?.emailVerifiedAt);
  return (
    <Stack gap="6" maxW="3xl" mx="auto">
      <PageHeader
        title="Tu cuenta"
        actions={
          <Button variant="outline" onClick={logout} alignSelf={{ base: "flex-start", md: "center" }}>
            Salir
          </Button>
        }
      />
      {account.isPending ? (
        <Spinner aria-label="Cargando tu cuenta" />
      ) : account.isError ? (
        <LoadError title="No se pudo cargar tu cuenta" query={account} />
      ) : (
        <>
          <EmailCard email={account.data.email} verified={verified} />
          {verified && (
            <>
              <Purchases email={account.data.email} />
              <Codes />
            </>
          )}
        </>
      )}
    </Stack>
  );
}

function EmailCard({ email, verified }: { email: string; verified: boolean }) {
  const resend = useResendVerification();
  return (
    <Card.Root as="section" aria-labelledby="account-email">
      <Card.Body gap="3">
        <Heading as="h2" size="md" id="account-email">
          Tu correo
        </Heading>
        <HStack gap="3" wrap="wrap">
          <Text fontWeight="medium" wordBreak="break-all">
            {email}
          </Text>
          <Badge colorPalette={verified ? "green" : "orange"}>{verified ? "Verificado" : "Sin verificar"}</Badge>
        </HStack>
        {!verified && (
          <>
            <Text color="fg.muted">
              {accountMessages.notVerified}: abre el enlace que te enviamos a este correo, o pide uno nuevo. Así nadie
              más ve lo que compraste.
            </Text>
            {resend.isSuccess ? (
              <Text role="status" color="green.700">
                {resend.data.sent
                  ? `Te enviamos un nuevo enlace a ${resend.data.to}.`
                  : "No se pudo enviar el correo. Intenta de nuevo en unos minutos."}
              </Text>
            ) : (
              <Button
                alignSelf="flex-start"
                variant="outline"
                loading={resend.isPending}
                onClick={() => resend.mutate()}
              >
                Reenviar verificación
              </Button>
            )}
          </>
        )}
      </Card.Body>
    </Card.Root>
  );
}

function Purchases({ email }: { email: string }) {
  const purchases = usePurchases(true);
  const rows = purchases.data?.pages.flatMap((page) => page.purchases) ?? [];
  return (
    <Stack as="section" aria-labelledby="account-purchases" gap="3">
      <Heading as="h2" size="lg" id="account-purchases">
        Tus compras
      </Heading>
      {purchases.isPending ? (
        <Spinner aria-label="Cargando tus compras" />
      ) : purchases.isError ? (
        <LoadError title="No se pudieron cargar tus compras" query={purchases} />
      ) : rows.length === 0 ? (
        <EmptyState
          title="Aún no tienes compras"
          description={`Las fotos que compres con ${email} aparecerán aquí.`}
          action={
            <Button asChild>
              <RouterLink to="/search">Buscar mis fotos</RouterLink>
            </Button>
          }
        />
      ) : (
        <>
          {rows.map((purchase) => (
            <PurchaseCard key={purchase.id} purchase={purchase} />
          ))}
          <LoadMoreButton list={purchases} />
        </>
      )}
    </Stack>
  );
}

function PurchaseCard({ purchase }: { purchase: AccountPurchase }) {
  const send = useSendPurchaseLink();
  const open = !purchase.expired && purchase.downloadsLeft > 0;
  const headingId = `purchase-${purchase.id}`;
  return (
    <Card.Root as="article" aria-labelledby={headingId} size="sm">
      <Card.Body gap="2">
        <HStack justify="space-between" align="flex-start" gap="3" wrap="wrap">
          <Heading as="h3" size="md" id={headingId}>
            {purchase.eventName}
          </Heading>
          <Text fontWeight="semibold">{formatCop(purchase.amount)}</Text>
        </HStack>
        <Text>
          {[
            purchase.dorsalNumber && `Dorsal ${purchase.dorsalNumber}`,
            formatCounted(purchase.photoCount, "foto", "fotos"),
          ]
            .filter(Boolean)
            .join(" · ")}
        </Text>
        <Text color="fg.muted" textStyle="sm">
          Pagada el {formatDateTime(purchase.paidAt)} ·{" "}
          {purchase.expired
            ? "Vencida"
            : `${purchase.downloadsLeft} de ${purchase.maxDownloads} descargas restantes por foto`}
          {purchase.expiresAt && !purchase.expired && ` · vence el ${formatDateTime(purchase.expiresAt)}`}
        </Text>
        {send.isSuccess ? (
          <Text role="status" color="green.700">
            {send.data.sent
              ? `Te enviamos el enlace a ${send.data.to}. Los enlaces anteriores ya no funcionan.`
              : "No se pudo enviar el correo. Intenta de nuevo en unos minutos."}
          </Text>
        ) : (
          <Box>
            <Button
              size="sm"
              variant="outline"
              disabled={!open}
              loading={send.isPending}
              onClick={() => send.mutate(purchase.id)}
            >
              Enviar enlace a mi correo
            </Button>
          </Box>
        )}
      </Card.Body>
    </Card.Root>
  );
}

function Codes() {
  const codes = useCodes(true);
  return (
    <Stack as="section" aria-labelledby="account-codes" gap="3">
      <Heading as="h2" size="lg" id="account-codes">
        Tus códigos de descarga
      </Heading>
      {codes.isPending ? (
        <Spinner aria-label="Cargando tus códigos" />
      ) : codes.isError ? (
        <LoadError title="No se pudieron cargar tus códigos" query={codes} />
      ) : codes.data.length === 0 ? (
        <EmptyState
          title="No tienes códigos de descarga"
          description="Los códigos que el organizador te envíe por correo aparecerán aquí."
        />
      ) : (
        codes.data.map((code) => <CodeCard key={code.code} code={code} />)
      )}
    </Stack>
  );
}

function CodeCard({ code }: { code: AccountCode }) {
  return (
    <Card.Root as="article" aria-label={`Código ${code.code}`} size="sm">
      <Card.Body gap="1">
        <Text fontFamily="mono" fontWeight="bold" textStyle="lg">
          {code.code}
        </Text>
        <Text>
          {code.eventName} · Dorsal {code.dorsalNumber}
        </Text>
        <Text color="fg.muted" textStyle="sm">
          {code.expired
            ? "Vencido"
            : `${code.remainingDownloads} de ${code.maxDownloads} descargas restantes · vence el ${formatDateTime(code.expiresAt)}`}
        </Text>
      </Card.Body>
    </Card.Root>
  );
}
