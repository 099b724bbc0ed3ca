import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { bootScript, compileHints, servedConsole } from './server/build-plugin.ts';

// `npm run dev` proxies the API to the sandbox that scripts/dev.ts starts beside Vite
const apiTarget = process.env.SANDBOX_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [
    // every route file becomes its own lazily loaded chunk
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      // a route's loader travels with its component: the entry then carries no area's API code
      codeSplittingOptions: { defaultBehavior: [['loader', 'component'], ['errorComponent'], ['notFoundComponent']] },
      routesDirectory: 'src/routes',
      generatedRouteTree: 'src/routeTree.gen.ts',
    }),
    react(),
    servedConsole(),
    bootScript(),
    compileHints(),
  ],
  build: {
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // few files per screen: over HTTP/1.1 a browser fetches six at a time, and a deep link's
        // 30 small chunks held its first request back by some 800 ms on a 150 ms link
        codeSplitting: {
          groups: [
            // what the entry loads is one file
            { name: 'entry', tags: ['$initial'], priority: 2 },
            // the shell and everything it imports: in every signed-in page, so no route carries a copy
            { name: 'shell', test: /src\/features\/shell\/app-shell\.tsx$/, priority: 1 },
          ],
          // small chunks shared by routes are copied into them (one module state: rolldown's registry)
          experimentalInlineCommonChunks: { maxSize: 16_384, exclude: /\.css(?:\?|$)/ },
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api/v4': { target: apiTarget, changeOrigin: false },
      '/-/sandbox': { target: apiTarget, changeOrigin: false },
    },
  },
});
