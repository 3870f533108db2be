import { Box, Button, Code, Heading, Text, VStack } from "@chakra-ui/react";
import { Component, type ErrorInfo, type ReactNode } from "react";
import { session } from "../lib/session";

interface State {
  error: Error | null;
}

/**
 * Spec §2.1: an unexpected rendering error shows this screen and clears the stored user, because
 * a corrupt session is the most common way to crash every page on load.
 */
export class AppErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error("Error de la Aplicación", error, info.componentStack);
    session.clear();
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <Box minH="100dvh" display="flex" alignItems="center" justifyContent="center" p="6" role="alert">
        <VStack gap="4" maxW="lg" textAlign="center" bg="white" p="8" borderRadius="xl" shadow="md">
          <Heading as="h1" size="xl" color="red.600">
            Error de la Aplicación
          </Heading>
          <Text>Se ha detectado un error inesperado</Text>
          <Code whiteSpace="pre-wrap" p="3" colorPalette="red" maxW="full">
            {error.message}
          </Code>
          <Button colorPalette="red" onClick={() => window.location.reload()}>
            Recargar Página
          </Button>
        </VStack>
      </Box>
    );
  }
}
