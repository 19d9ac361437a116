import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';

// During `npm run dev`, HERMES_API=http://127.0.0.1:PORT proxies /api to a running `hermes serve`.
const api = process.env.HERMES_API;

export default defineConfig({
  plugins: [svelte(), svelteTesting()],
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // No inline helpers or data: URLs in the output: the page runs under a strict CSP.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
  },
  server: api ? { proxy: { '/api': { target: api, changeOrigin: false } } } : {},
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.ts'],
    restoreMocks: true,
  },
});
