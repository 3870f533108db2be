import { Alert, Button } from "@chakra-ui/react";

interface LoadErrorProps {
  /** What could not be read, in the spec's words ('Error cargando usuarios'). */
  title: string;
  /** The server's reason. */
  message: string;
  /** Reads the data again; without it the screen offers no retry (e.g. when it already polls). */
  onRetry?: () => void;
  retrying?: boolean;
}

/** The one way a screen says its data could not be read: what, why, and 'Reintentar'. */
export function LoadError({ title, message, onRetry, retrying = false }: LoadErrorProps) {
  return (
    <Alert.Root status="error" role="alert" alignItems={{ base: "flex-start", sm: "center" }}>
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{title}</Alert.Title>
        <Alert.Description>{message}</Alert.Description>
      </Alert.Content>
      {onRetry && (
        <Button size="sm" variant="outline" colorPalette="red" bg="white" onClick={onRetry} loading={retrying}>
          Reintentar
        </Button>
      )}
    </Alert.Root>
  );
}
