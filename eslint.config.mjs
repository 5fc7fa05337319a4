// ESLint with the Next.js config (core web vitals + TypeScript), as STYLE.md asks.
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

const config = [
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      // A leading underscore marks a binding left unused on purpose (rest-omission, ignored params).
      '@typescript-eslint/no-unused-vars': ['warn', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
    },
  },
  {
    ignores: ['.next/**', 'node_modules/**', 'lib/db/generated/**', 'test-results/**', 'playwright-report/**', 'e2e/artifacts/**', 'next-env.d.ts', '.work/**'],
  },
];

export default config;
