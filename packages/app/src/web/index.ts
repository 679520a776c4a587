/**
 * Serving the web front end: `GET /` (index.html under a strict Content-Security-Policy, no inline
 * script), `/app.js` and `/app.css`.
 *
 * In the repository (`packages/app/web/main.tsx` exists) the bundle is built in memory with
 * esbuild's JS API once per process and cached; a packaged app, which has no sources, reads the
 * prebuilt `dist/web/` (written by `buildWebBundle`, see `scripts/build-web.ts`).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';

const HERE = dirname(fileURLToPath(import.meta.url));

/** The UI sources: `packages/app/web` seen from `packages/app/src/web`. */
export const WEB_SOURCE_DIR = resolve(HERE, '../../web');

/** Where a packaged app looks for the prebuilt bundle, first match wins. */
const DIST_CANDIDATES = [
  HERE, // compiled: packages/app/dist/web/index.js, the bundle beside it
  resolve(HERE, '../../dist/web'), // packages/app/src/web → packages/app/dist/web
  resolve(HERE, '../web-dist'), // compiled dist/src/web → dist/web-dist (alternative layout)
  resolve(HERE, '../../web-dist'),
];

export interface WebBundle {
  js: Buffer;
  css: Buffer;
}

export interface WebAppOptions {
  /** The UI sources (default `packages/app/web`); built in memory when its `main.tsx` exists. */
  sourceDir?: string;
  /** A prebuilt bundle directory holding app.js and app.css (default: searched next to this code). */
  distDir?: string;
  /** Register `GET /` too (default true); false when the server owns `/` and calls `serveIndex`. */
  index?: boolean;
}

/** The page's Content-Security-Policy: scripts and styles from this origin only, nothing inline. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light" />
    <title>Nightjar</title>
    <link rel="stylesheet" href="/app.css" />
    <script type="module" src="/app.js"></script>
  </head>
  <body>
    <div id="app"><noscript>The Nightjar trading app needs JavaScript.</noscript></div>
  </body>
</html>
`;

function esbuildOptions(sourceDir: string) {
  return {
    entryPoints: [join(sourceDir, 'main.tsx')],
    bundle: true,
    minify: true,
    format: 'esm' as const,
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
    jsx: 'automatic' as const,
    jsxImportSource: 'preact',
    entryNames: 'app',
    outdir: 'out',
    legalComments: 'none' as const,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent' as const,
    absWorkingDir: sourceDir,
  };
}

/** Builds the bundle in memory from `sourceDir`. */
export async function buildWebBundleInMemory(sourceDir = WEB_SOURCE_DIR): Promise<WebBundle> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({ ...esbuildOptions(sourceDir), write: false });
  let js: Buffer | undefined;
  let css: Buffer | undefined;
  for (const f of result.outputFiles) {
    if (f.path.endsWith('.js')) js = Buffer.from(f.contents);
    else if (f.path.endsWith('.css')) css = Buffer.from(f.contents);
  }
  if (!js) throw new Error('the web bundle has no app.js');
  return { js, css: css ?? Buffer.alloc(0) };
}

/** Writes app.js and app.css (and index.html, for reference) to `outDir` for packaging. */
export async function buildWebBundle(outDir: string, sourceDir = WEB_SOURCE_DIR): Promise<WebBundle> {
  const bundle = await buildWebBundleInMemory(sourceDir);
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'app.js'), bundle.js);
  await writeFile(join(outDir, 'app.css'), bundle.css);
  await writeFile(join(outDir, 'index.html'), INDEX_HTML);
  return bundle;
}

async function readPrebuilt(distDir: string): Promise<WebBundle> {
  const [js, css] = await Promise.all([
    readFile(join(distDir, 'app.js')),
    readFile(join(distDir, 'app.css')).catch(() => Buffer.alloc(0)),
  ]);
  return { js, css };
}

const cache = new Map<string, Promise<WebBundle>>();

/**
 * The bundle for these options, built or read once per process: from the sources when they exist
 * (the repository), otherwise from a prebuilt directory (the packaged app).
 */
export function loadWebBundle(opts: WebAppOptions = {}): Promise<WebBundle> {
  const sourceDir = opts.sourceDir ?? WEB_SOURCE_DIR;
  const fromSource = !opts.distDir && existsSync(join(sourceDir, 'main.tsx'));
  const distDir = opts.distDir ?? DIST_CANDIDATES.find((d) => existsSync(join(d, 'app.js')));
  const key = fromSource ? `src:${sourceDir}` : `dist:${distDir ?? ''}`;
  let p = cache.get(key);
  if (!p) {
    if (fromSource) p = buildWebBundleInMemory(sourceDir);
    else if (distDir) p = readPrebuilt(distDir);
    else
      p = Promise.reject(
        new Error(
          `no web front end: neither ${join(sourceDir, 'main.tsx')} nor a prebuilt dist/web (run scripts/build-web.ts)`,
        ),
      );
    cache.set(key, p);
    p.catch(() => cache.delete(key));
  }
  return p;
}

function securityHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', CONTENT_SECURITY_POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY')
    .header('cross-origin-opener-policy', 'same-origin')
    .header('cross-origin-resource-policy', 'same-origin');
}

/** Sends the page (index.html) with its security headers; for a server that owns `GET /` itself. */
export function serveIndex(reply: FastifyReply): FastifyReply {
  return securityHeaders(reply)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(INDEX_HTML);
}

/**
 * Registers `GET /`, `GET /app.js` and `GET /app.css` on `app`. The returned promise resolves once
 * the bundle is built (or read) and rejects if that fails; awaiting it is optional (the routes
 * wait for the bundle themselves and answer 500 if it cannot be built).
 */
export function registerWebApp(app: FastifyInstance, opts: WebAppOptions = {}): Promise<void> {
  const bundle = () => loadWebBundle(opts);
  if (opts.index !== false) app.get('/', async (_req, reply) => serveIndex(reply));
  app.get('/app.js', async (_req, reply) => {
    const { js } = await bundle();
    return securityHeaders(reply)
      .header('cache-control', 'no-cache')
      .type('text/javascript; charset=utf-8')
      .send(js);
  });
  app.get('/app.css', async (_req, reply) => {
    const { css } = await bundle();
    return securityHeaders(reply)
      .header('cache-control', 'no-cache')
      .type('text/css; charset=utf-8')
      .send(css);
  });
  const ready = bundle().then(() => undefined);
  ready.catch(() => undefined); // a caller that does not await must not see an unhandled rejection
  return ready;
}
