/**
 * Writes the web front end's bundle (app.js, app.css, index.html) to packages/app/dist/web, next to
 * the compiled server code, for a packaged app that has no web/ sources (run by scripts/build.mjs).
 *
 *   npx tsx packages/app/scripts/build-web.ts [outDir]
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWebBundle } from '../src/web/index.js';

const outDir = resolve(process.argv[2] ?? resolve(dirname(fileURLToPath(import.meta.url)), '../dist/web'));
const { js, css } = await buildWebBundle(outDir);
console.log(
  `build-web: ${outDir}/app.js ${(js.length / 1024).toFixed(1)} KB, app.css ${(css.length / 1024).toFixed(1)} KB`,
);
