// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/coverage/**',
      '.data/**',
      'prisma/migrations/**',
      'apps/web/dist-e2e/**',
      'apps/web/playwright-report/**',
      'apps/web/test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: [
            'apps/web/vite.config.ts',
            'apps/web/playwright.config.ts',
            'apps/web/gateway-routes.ts',
            'apps/web/web-server.ts',
            'apps/web/servers/*.ts',
          ],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      // NestJS injects by class reference: a type-only import would erase the token.
      '@typescript-eslint/consistent-type-imports': 'off',
    },
  },
  {
    // Tests assert on loosely typed HTTP bodies; `any` there is the response, not a design choice.
    files: [
      '**/*.spec.ts',
      '**/*.e2e-spec.ts',
      '**/*.faults-spec.ts',
      '**/testing/**',
      'packages/test-kit/**',
    ],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // Sizes a newcomer can read (issue 19): no source file over 400 lines, no function over 80.
    // Test files may hold long describe blocks; test support (testing/) follows the rule. The
    // preview pages' scripts each wrap themselves in one function to keep their names private:
    // that wrapper is not counted (IIFEs), the functions inside it are.
    files: [
      'apps/*/src/**/*.{ts,tsx}',
      'packages/*/src/**/*.ts',
      'scripts/**/*.mjs',
      'apps/gateway/preview-assets/**/*.js',
    ],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': [
        'error',
        { max: 80, skipBlankLines: true, skipComments: true, IIFEs: false },
      ],
    },
  },
  {
    files: [
      '**/*.spec.ts',
      '**/*.e2e-spec.ts',
      '**/*.faults-spec.ts',
      '**/*.live-spec.ts',
      '**/*.test.ts',
      '**/*.test.tsx',
    ],
    rules: { 'max-lines-per-function': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: globals.node,
    },
  },
  {
    // The preview pages' scripts run in the browser, served as they are (no bundler).
    files: ['apps/gateway/preview-assets/**/*.js'],
    languageOptions: { globals: globals.browser, sourceType: 'script' },
  },
);
