import { Center, Spinner } from "@chakra-ui/react";

export function PageSpinner() {
  return (
    <Center py="20">
      <Spinner size="lg" color="blue.500" aria-label="Cargando" />
    </Center>
  );
}
