import {
  Alert,
  Button,
  Card,
  Field,
  Heading,
  HStack,
  NativeSelect,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from "@chakra-ui/react";
import { messages } from "@dorsal/shared";
import { type DriveAuthOutcome, driveAuthParam, driveMessages } from "@dorsal/shared/drive";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { LoadError } from "../../../components/ui/load-error";
import { toaster } from "../../../components/ui/toaster";
import { ApiError } from "../../../lib/api-fetch";
import { formatBytes } from "../../../lib/format";
import { useSession } from "../../../lib/session";
import {
  driveAuthOutcome,
  driveAuthUrl,
  driveBatchQueryOptions,
  driveFoldersQueryOptions,
  driveKey,
  drivePhotosQueryOptions,
  drivePopupPollMs,
  drivePopupTimeoutMs,
  importDriveFolder,
  morePhotosLabel,
  resetDrive,
} from "../api/drive";
import { myUploadsKey } from "../api/my-uploads";
import { photosLabel } from "../api/photo-label";
import { ZipBatchProgress } from "./zip-batch-progress";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Spec §9: how the authorization ended, said in a toast for 5 s. */
function announce(outcome: DriveAuthOutcome) {
  toaster.create(
    outcome === "success"
      ? { type: "success", title: "Google Drive conectado", description: "Elige una carpeta para importar sus fotos." }
      : { type: "error", title: driveMessages.connectionError, description: driveMessages.authRefused },
  );
}

/** Where a page the callback landed on tells the upload screen that opened the popup, if their link was cut. */
const driveChannel = "dorsal-drive";

/**
 * Opens the provider's authorization in a popup and watches it every second (spec §9) until it
 * comes back to our callback, is closed, or runs out of time. A blocked popup becomes a navigation
 * of this window, which the callback brings back here with `drive_auth`. A provider whose pages cut
 * the popup from its opener (Cross-Origin-Opener-Policy) makes it look closed at once: the page the
 * callback lands on then says how it ended on a broadcast channel.
 */
function useDriveConnect(onDone: () => void) {
  const user = useSession();
  const timer = useRef<number | undefined>(undefined);
  const [connecting, setConnecting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => () => window.clearInterval(timer.current), []);

  const finished = useRef(onDone);
  finished.current = onDone;
  useEffect(() => {
    const channel = new BroadcastChannel(driveChannel);
    channel.onmessage = (message: MessageEvent<DriveAuthOutcome>) => {
      if (message.data !== "success" && message.data !== "error") return;
      window.clearInterval(timer.current);
      setConnecting(false);
      announce(message.data);
      finished.current();
    };
    return () => channel.close();
  }, []);

  // Landed here from the callback without a live opener (a blocked popup, or one cut from its
  // opener): every upload screen of the site hears it, this one included (its listener above is
  // another channel object); inside a popup whose opener is there, the opener reads the address.
  useEffect(() => {
    const outcome = driveAuthOutcome(window.location.href);
    if (!outcome || window.opener) return;
    const channel = new BroadcastChannel(driveChannel);
    channel.postMessage(outcome);
    channel.close();
    const url = new URL(window.location.href);
    url.searchParams.delete(driveAuthParam);
    window.history.replaceState(window.history.state, "", url);
  }, []);

  const connect = async (clean: boolean) => {
    setProblem(null);
    setConnecting(true);
    let authUrl: string;
    try {
      authUrl = (await driveAuthUrl(user?.email, clean)).authUrl;
    } catch (error) {
      setConnecting(false);
      setProblem(messageOf(error));
      return;
    }
    const popup = window.open(authUrl, "dorsal-drive", "popup,width=520,height=680");
    if (!popup) {
      window.location.assign(authUrl);
      return;
    }
    const started = Date.now();
    window.clearInterval(timer.current);
    timer.current = window.setInterval(() => {
      let outcome: DriveAuthOutcome | null = null;
      try {
        outcome = driveAuthOutcome(popup.location.href);
      } catch {
        // Still at the provider: another origin's address cannot be read.
      }
      const timedOut = Date.now() - started > drivePopupTimeoutMs(clean);
      if (!outcome && !popup.closed && !timedOut) return;
      window.clearInterval(timer.current);
      if (!popup.closed) popup.close();
      setConnecting(false);
      if (outcome) announce(outcome);
      else if (timedOut) setProblem(driveMessages.connectionError);
      onDone();
    }, drivePopupPollMs);
  };
  return { connect, connecting, problem };
}

function FolderPreview({ folderId }: { folderId: string }) {
  const photos = useQuery(drivePhotosQueryOptions(folderId));
  if (photos.isPending) return <Skeleton height="20" />;
  if (photos.isError) {
    return (
      <LoadError
        title={driveMessages.connectionError}
        message={photos.error.message}
        onRetry={() => void photos.refetch()}
      />
    );
  }
  const { photos: shown, total } = photos.data;
  if (total === 0) return <Text color="fg.muted">{driveMessages.folderEmpty}</Text>;
  const more = morePhotosLabel(total, shown.length);
  return (
    <Stack gap="2">
      <Text textStyle="sm" fontWeight="semibold">
        {photosLabel(total)} en la carpeta
      </Text>
      <SimpleGrid
        as="ul"
        aria-label="Vista previa"
        columns={{ base: 1, sm: 2, lg: 3 }}
        gap="2"
        listStyleType="none"
        textStyle="sm"
      >
        {shown.map((photo) => (
          <HStack as="li" key={photo.id} justify="space-between" gap="2" borderWidth="1px" rounded="md" px="3" py="2">
            <Text truncate title={photo.name} minW="0">
              {photo.name}
            </Text>
            <Text color="fg.muted" flexShrink="0">
              {formatBytes(Number(photo.size))}
            </Text>
          </HStack>
        ))}
      </SimpleGrid>
      {more && (
        <Text textStyle="sm" color="fg.muted">
          {more}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Spec §2.5's third source: a folder of the admin's cloud drive, connected through an authorization
 * popup, previewed (12 photos, then '+N más') and imported into the event chosen on the page. The
 * server brings the photos in the background, into the same path every upload takes, and the card
 * follows the import like a ZIP's.
 */
export function DriveImportCard({ eventId }: { eventId: number | null }) {
  const queryClient = useQueryClient();
  const folders = useQuery(driveFoldersQueryOptions());
  const [folderId, setFolderId] = useState("");
  const [batchId, setBatchId] = useState<string | null>(null);
  const drive = useDriveConnect(() => void queryClient.invalidateQueries({ queryKey: driveKey }));
  const batch = useQuery({ ...driveBatchQueryOptions(batchId ?? ""), enabled: batchId !== null });
  const importing = useMutation({
    mutationFn: (request: { eventId: number; folderId: string }) =>
      importDriveFolder(request.eventId, request.folderId),
    onSuccess: (answer) => {
      setBatchId(answer.batchId);
      void queryClient.invalidateQueries({ queryKey: myUploadsKey, exact: true });
    },
  });
  const disconnect = useMutation({
    mutationFn: resetDrive,
    onSuccess: () => {
      setFolderId("");
      void queryClient.invalidateQueries({ queryKey: driveKey });
    },
  });

  const blockedBecause = eventId === null ? messages.selectEvent : folderId === "" ? driveMessages.selectFolder : null;
  const connected = folders.data?.connected === true;

  return (
    <Card.Root as="section" aria-labelledby="drive-import-title">
      <Card.Body gap="4">
        <Stack gap="1">
          <Heading as="h2" size="md" id="drive-import-title">
            Importar desde Google Drive
          </Heading>
          <Text color="fg.muted" textStyle="sm">
            Elige una carpeta de tu Google Drive: sus fotos se importan al evento en el servidor, sin pasar por este
            equipo.
          </Text>
        </Stack>
        {folders.isPending ? (
          <Skeleton height="10" />
        ) : folders.isError ? (
          <LoadError
            title={driveMessages.connectionError}
            message={folders.error.message}
            onRetry={() => void folders.refetch()}
          />
        ) : !connected ? (
          <Stack gap="2" align={{ base: "stretch", sm: "flex-start" }}>
            <Text textStyle="sm">{driveMessages.notConnected}.</Text>
            <Button
              colorPalette="blue"
              variant="outline"
              onClick={() => void drive.connect(false)}
              loading={drive.connecting}
              loadingText="Esperando autorización…"
            >
              Conectar Google Drive
            </Button>
          </Stack>
        ) : (
          <Stack gap="4">
            {folders.data.folders.length === 0 ? (
              <Text color="fg.muted">No hay carpetas en tu Google Drive.</Text>
            ) : (
              <Field.Root disabled={importing.isPending}>
                <Field.Label>Carpeta</Field.Label>
                <NativeSelect.Root>
                  <NativeSelect.Field
                    value={folderId}
                    onChange={(event) => {
                      setFolderId(event.currentTarget.value);
                      importing.reset();
                    }}
                    bg="white"
                  >
                    <option value="">{driveMessages.selectFolder}</option>
                    {folders.data.folders.map((folder) => (
                      <option key={folder.id} value={folder.id}>
                        {folder.name}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </Field.Root>
            )}
            {folderId && <FolderPreview folderId={folderId} />}
            <Stack gap="2" align={{ base: "stretch", sm: "flex-start" }}>
              <HStack gap="3" wrap="wrap">
                <Button
                  colorPalette="blue"
                  flex={{ base: "1", sm: "initial" }}
                  onClick={() => {
                    if (eventId !== null && folderId) importing.mutate({ eventId, folderId });
                  }}
                  loading={importing.isPending}
                  loadingText="Importando…"
                  disabled={blockedBecause !== null}
                  aria-describedby={blockedBecause ? "drive-blocked-reason" : undefined}
                >
                  Importar fotos
                </Button>
                <Button variant="ghost" onClick={() => void drive.connect(true)} loading={drive.connecting}>
                  Cambiar de cuenta
                </Button>
                <Button
                  variant="ghost"
                  colorPalette="red"
                  onClick={() => disconnect.mutate()}
                  loading={disconnect.isPending}
                >
                  Desconectar
                </Button>
              </HStack>
              {blockedBecause && (
                <Text id="drive-blocked-reason" textStyle="sm" color="fg.muted">
                  {blockedBecause}
                </Text>
              )}
            </Stack>
          </Stack>
        )}
        {(drive.problem || disconnect.error) && (
          <Alert.Root status="error">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{driveMessages.connectionError}</Alert.Title>
              <Alert.Description>
                {drive.problem === driveMessages.connectionError
                  ? driveMessages.authRefused
                  : (drive.problem ?? messageOf(disconnect.error))}
              </Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}
        {importing.error && (
          <Alert.Root status="error">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{driveMessages.importErrorTitle}</Alert.Title>
              <Alert.Description>
                {importing.error instanceof ApiError ? importing.error.message : driveMessages.importError}
              </Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}
        {batchId && (
          <ZipBatchProgress
            batch={batch.data ?? null}
            checkFailed={batch.isError}
            onRecheck={() => void batch.refetch()}
            source="drive"
          />
        )}
      </Card.Body>
    </Card.Root>
  );
}
