import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', '.data/', 'scratch/', '.dependency-cruiser.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  {
    // The browser components, the hosted checkout's and the demo airline's page scripts: plain modules that run in a browser, not in node.
    files: ['components/**/*.js', 'demo/**/*.js', 'checkout/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: Object.fromEntries(
        ['window', 'document', 'location', 'console', 'fetch', 'URL', 'HTMLElement', 'customElements', 'CustomEvent', 'Event', 'CSSStyleSheet', 'setTimeout', 'clearTimeout', 'queueMicrotask', 'URLSearchParams', 'TextEncoder'].map((name) => [name, 'readonly']),
      ),
    },
  },
  {
    // Plain JavaScript that node runs as it is (the build script): node's globals.
    files: ['**/*.mjs'],
    languageOptions: {
      globals: Object.fromEntries(['process', 'console', 'URL', 'performance'].map((name) => [name, 'readonly'])),
    },
  },
  {
    // Command lines and benchmarks talk to a person on stdout.
    files: ['scripts/**', 'bench/**', 'main.ts'],
    rules: { 'no-console': 'off' },
  },
);
