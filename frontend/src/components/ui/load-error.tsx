import { Alert, Button } from "@chakra-ui/react";

/** What a failed read offers (a TanStack query result): its reason and a way to read again. */
interface FailedRead {
  error: Error | null;
  refetch: () => unknown;
  isFetching: boolean;
}

type LoadErrorProps = {
  /** What could not be read, in the spec's words ('Error cargando usuarios'). */
  title: string;
} & (
  | {
      /** The failed query: its error is the reason and 'Reintentar' reads it again. */
      query: FailedRead;
    }
  | {
      /** The server's reason. */
      message: string;
      /** Reads the data again; without it the screen offers no retry (e.g. when it already polls). */
      onRetry?: () => void;
      retrying?: boolean;
    }
);

/** The one way a screen says its data could not be read: what, why, and 'Reintentar'. */
export function LoadError(props: LoadErrorProps) {
  const { title } = props;
  const { message, onRetry, retrying } =
    "query" in props
      ? {
          message: props.query.error?.message ?? "",
          onRetry: () => void props.query.refetch(),
          retrying: props.query.isFetching,
        }
      : { message: props.message, onRetry: props.onRetry, retrying: props.retrying ?? false };
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
