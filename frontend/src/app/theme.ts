import { createSystem, defaultConfig, defineConfig } from "@chakra-ui/react";

const config = defineConfig({
  globalCss: {
    body: { bg: "gray.50", color: "gray.900" },
    // An icon nothing sizes (not a button's, not given a boxSize) is as big as the text beside it,
    // never the 300 px an <svg> without width takes. Base styles yield to recipes and props.
    ".chakra-icon": { width: "1em", height: "1em" },
  },
});

export const system = createSystem(defaultConfig, config);
