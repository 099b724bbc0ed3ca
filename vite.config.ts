import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { bootScript, servedConsole } from './server/build-plugin.ts';

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
  ],
  build: {
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // what the entry loads is one file: a deep link otherwise waits on a dozen small requests, six at a time
        codeSplitting: { groups: [{ name: 'entry', tags: ['$initial'] }] },
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
