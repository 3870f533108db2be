import { Alert } from "@chakra-ui/react";

/** What a screen shows when its data could not be read: the spec's Spanish title and the server's reason. */
export function LoadError({ title, message }: { title: string; message: string }) {
  return (
    <Alert.Root status="error">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{title}</Alert.Title>
        <Alert.Description>{message}</Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}
