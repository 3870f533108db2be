import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { precompress } from "./precompress";

export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    proxy: { "/api": "http://localhost:3000" },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Read by the bundle budget (tests/integration/bundle-budget.test.ts); kept out of the served files.
    manifest: true,
    rolldownOptions: {
      output: {
        // Libraries change far less often than the app: separate files stay cached across releases.
        // Only the parts the first screen runs ($initial): a component only signed-in pages use
        // (tabs, pagination, checkbox…) loads with those pages, not on every visitor's first load.
        codeSplitting: {
          groups: [
            {
              name: "react",
              tags: ["$initial"],
              test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/,
            },
            {
              name: "ui",
              tags: ["$initial"],
              test: /node_modules[\\/](@chakra-ui|@ark-ui|@zag-js|@emotion|@floating-ui|@internationalized|@pandacss|@swc|stylis|proxy-compare)[\\/]/,
            },
            { name: "data", tags: ["$initial"], test: /node_modules[\\/](@tanstack|zod)[\\/]/ },
            // The app's own first-load code as one file. Left to itself, Rolldown moves what the
            // first load shares with the staff screens' contract groups (@dorsal/shared's schemas,
            // api-fetch) into a chunk of its own, and two files gzip worse: /search paid 0.9 kB more.
            { name: "app", tags: ["$initial"], test: /(shared|frontend)[\\/]src[\\/]/ },
          ],
        },
      },
    },
  },
});
