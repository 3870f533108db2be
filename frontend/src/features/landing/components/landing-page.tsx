import { Box, Button, Container, Heading, Link, Stack, Text } from "@chakra-ui/react";
import { Link as RouterLink } from "react-router";
import { LinkCards } from "../../../components/ui/link-cards";

const paths = [
  {
    to: "/free-photos",
    title: "Fotos gratis",
    text: "Algunos eventos liberan sus fotos para descargar sin costo.",
    action: "Ver fotos gratis",
  },
  {
    to: "/soy-fotografo",
    title: "Soy fotógrafo",
    text: "Cubre carreras con nosotros y sube tus fotos desde el celular.",
    action: "Aplicar",
  },
  {
    to: "/photographer-login",
    title: "Acceso fotógrafos",
    text: "Ingresa para subir las fotos del evento que te asignaron.",
    action: "Ingresar",
  },
] as const;

export function LandingPage() {
  return (
    <Box>
      <Box bgGradient="to-br" gradientFrom="blue.700" gradientTo="blue.900" color="white">
        <Container maxW="6xl" py={{ base: "14", md: "24" }}>
          <Stack gap="5" maxW="2xl">
            <Heading as="h1" size={{ base: "3xl", md: "5xl" }} lineHeight="1.1">
              Encuentra tus fotos de carrera con tu número de dorsal
            </Heading>
            <Text fontSize={{ base: "md", md: "lg" }} color="blue.100">
              Reconocemos automáticamente los dorsales en cada foto. Busca la tuya, elige tus favoritas y descárgalas en
              alta resolución.
            </Text>
            <Stack direction={{ base: "column", sm: "row" }} gap="3">
              <Button asChild size="lg" bg="white" color="blue.800" _hover={{ bg: "blue.50" }}>
                <RouterLink to="/search">Buscar mis fotos</RouterLink>
              </Button>
              <Button
                asChild
                size="lg"
                variant="outline"
                color="white"
                borderColor="whiteAlpha.600"
                _hover={{ bg: "whiteAlpha.200" }}
              >
                <RouterLink to="/free-photos">Fotos gratis</RouterLink>
              </Button>
            </Stack>
          </Stack>
        </Container>
      </Box>
      <Container maxW="6xl" py={{ base: "10", md: "16" }}>
        <LinkCards cards={paths} emphasis="outline" />
        <Text mt="10" textAlign="center" textStyle="sm" color="fg.muted">
          ¿Organizas eventos?{" "}
          <Link asChild colorPalette="blue" variant="underline">
            <RouterLink to="/admin-login">Acceso organizadores</RouterLink>
          </Link>
        </Text>
      </Container>
    </Box>
  );
}
