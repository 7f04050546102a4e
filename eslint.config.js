// The linter holds the walls that ARCHITECTURE.md draws, so that nobody has to remember them:
// type-aware rules that catch what tsc lets through (a promise nobody awaits, a switch that
// forgot a case), the rules of hooks, and which package may import which.
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/** Packages a folder must never import, and why: the floors of ARCHITECTURE.md. */
const FLOORS = [
  { files: ['schemas/src/**'], banned: ['@stat/*'], why: 'schemas/ is the ground floor: it imports no other package' },
  { files: ['telemetry/src/**', 'storage/src/**', 'bus/src/**'], banned: ['@stat/collector', '@stat/aggregator', '@stat/api', '@stat/server', '@stat/web'], why: 'a shared floor never imports a part above it' },
  { files: ['collector/src/**'], banned: ['@stat/storage', '@stat/aggregator', '@stat/api', '@stat/server', '@stat/bus'], why: 'the collector touches no database and knows the bus only through the HitPublisher of schemas/' },
  { files: ['aggregator/src/**'], banned: ['@stat/collector', '@stat/api', '@stat/server'], why: 'the parts meet only in server/' },
  { files: ['api/src/**'], banned: ['@stat/collector', '@stat/aggregator', '@stat/bus', '@stat/server'], why: 'the parts meet only in server/' },
  { files: ['web/src/**', 'counter-snippet/src/**'], banned: ['@stat/storage', '@stat/bus', '@stat/telemetry', '@stat/collector', '@stat/aggregator', '@stat/api', '@stat/server'], why: 'what runs in the browser imports only schemas/' },
];

/**
 * Rooms inside a package that the rest of it enters only by the front door, and why: a file of
 * `files` may import the room's index, never a file inside it (STYLE.md, habit 17). The package's
 * floor (FLOORS) is repeated in the same rule, since a later rule replaces an earlier one's options.
 */
const ROOMS = [
  {
    files: ['api/src/**'],
    ignores: ['api/src/engine/**'],
    group: ['**/engine/*', '!**/engine/index.js'],
    why: 'the report engine is entered only through engine/index.ts: what it offers the features is that one list, and its insides may move without them',
  },
];

const floorOf = (files) => FLOORS.filter((floor) => floor.files.some((f) => files.includes(f))).map(({ banned, why }) => ({ group: banned, message: why }));

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'web/public/**', 'data/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [tseslint.configs.base],
    // The packages' own tsconfigs, and tsconfig.tests.json for the Node packages' tests, which those leave out.
    languageOptions: { parserOptions: { project: ['./*/tsconfig.json', './tsconfig.tests.json'], tsconfigRootDir: import.meta.dirname } },
    plugins: { 'react-hooks': reactHooks },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-explicit-any': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'prefer-rest-params': 'error',
    },
  },
  {
    files: ['web/src/**/*.tsx', 'web/src/**/*.ts'],
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // Tests read the api's JSON answers field by field and assert them whole: `any` is the honest
    // type there. Code that ships keeps it out of its boundaries.
    files: ['**/*.test.ts', '**/*.test.tsx', '*/src/testing/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The counter's every byte is counted (its size budget), and each of its `==` compares values
    // of one type, where `===` means the same.
    files: ['counter-snippet/src/**'],
    rules: { eqeqeq: 'off' },
  },
  ...FLOORS.map(({ files, banned, why }) => ({
    files,
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: banned, message: why }] }] },
  })),
  ...ROOMS.map(({ files, ignores, group, why }) => ({
    files,
    ignores,
    rules: { 'no-restricted-imports': ['error', { patterns: [...floorOf(files), { group, message: why }] }] },
  })),
);
