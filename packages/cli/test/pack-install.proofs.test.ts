/**
 * The SDK and the CLI as an outside project gets them (issue 20 item 7): `npm run pack`'s tarballs
 * installed with plain `npm install` into a fresh project in a temporary directory, outside this
 * repository and its node_modules, then used from plain `node`:
 *
 * - the SDK's install (issue 32 item 6) holds no server package (better-sqlite3, fastify,
 *   selfsigned, @nightjar/ledger) and no install script but the optional native prover's, and npm
 *   warns no EBADENGINE on Node 20;
 * - examples/place-and-cancel.ts (transpiled to JavaScript, nothing else changed) deposits, places a
 *   bid and cancels it against a started venue, proving with the installed circuit artifacts, and
 *   loads neither better-sqlite3 nor fastify (an import hook refuses both);
 * - a TypeScript file typechecks against the installed `.d.ts` files;
 * - `npm install -g` of the tarballs gives a `nightjar` that answers `--help` and `status`, with one
 *   copy of better-sqlite3 (each tarball is its own global package: the engine opens SQLite
 *   through the ledger's copy rather than carrying its own).
 *
 * A proof-group test: it packs, installs twice (the two tests side by side) and proves (a deposit,
 * an order) with snarkjs, a few minutes on two shared cores. Installs use the npm cache
 * (`--prefer-offline`) that `npm ci` filled; no install script runs (the native prover and
 * better-sqlite3 stay unbuilt).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAST_SLOTS, killAll, startVenueProcess, stopVenueProcess } from '@nightjar/testkit/process';
import type { ChildProcess } from 'node:child_process';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// Warnings stay on: an EBADENGINE warning fails the test.
const NPM = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=warn'];
/** What the SDK needs, in install order; the CLI needs all eight. */
const SDK_PACKAGES = ['protocol', 'crypto', 'circuits', 'sdk'];
/** Packages that run a server (or build one's native store): never in the SDK's tree. */
const SERVER_PACKAGES = ['better-sqlite3', 'fastify', 'selfsigned', '@nightjar/ledger', '@nightjar/engine'];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(
  cmd: string,
  args: string[],
  opts: { cwd: string; env?: Record<string, string>; timeout?: number },
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      {
        cwd: opts.cwd,
        // npm run by vitest under `npm test` would otherwise see this repository's npm_* settings.
        env: { ...cleanEnv(), ...opts.env },
        timeout: opts.timeout ?? 240_000,
        maxBuffer: 64 << 20,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith('npm_') && k !== 'INIT_CWD' && k !== 'NODE_OPTIONS') env[k] = v;
  }
  return env;
}

function ok(r: Run, what: string): Run {
  if (r.code !== 0) throw new Error(`${what} exited ${r.code}\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** Every installed package under `dir` (node_modules at any depth), as its path from `dir`. */
function installedPackages(dir: string): string[] {
  const found: string[] = [];
  const walk = (modules: string, rel: string): void => {
    let entries: string[];
    try {
      entries = readdirSync(modules);
    } catch {
      return; // no node_modules here
    }
    for (const entry of entries) {
      if (entry.startsWith('.')) continue;
      const names = entry.startsWith('@')
        ? readdirSync(join(modules, entry)).map((n) => `${entry}/${n}`)
        : [entry];
      for (const name of names) {
        found.push(`${rel}${name}`);
        walk(join(modules, name, 'node_modules'), `${rel}${name}/`);
      }
    }
  };
  walk(join(dir, 'node_modules'), '');
  return found;
}

/** The packages of an install's lockfile that carry an install script (a native build). */
function withInstallScripts(dir: string): string[] {
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { hasInstallScript?: boolean }>;
  };
  return Object.entries(lock.packages)
    .filter(([, p]) => p.hasInstallScript)
    .map(([path]) => path.replace(/^.*node_modules\//, ''));
}

/** A TypeScript example as plain ES module JavaScript (types erased, imports unchanged). */
function transpile(from: string, to: string): void {
  const out = ts.transpileModule(readFileSync(from, 'utf8'), {
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
    },
    fileName: from,
  });
  writeFileSync(to, out.outputText);
}

/** Loaded with `node --import`: any import of better-sqlite3 or fastify fails the run. */
const FORBID_HOOKS = `
export async function resolve(specifier, context, next) {
  if (/^(better-sqlite3|fastify)(\\/|$)/.test(specifier)) throw new Error('loaded ' + specifier);
  return next(specifier, context);
}
`;

describe('the packed SDK and CLI, installed by an outside project', () => {
  let work: string;
  let tarballs: Map<string, string>;
  let venueDir: string;
  let venue: ChildProcess | undefined;
  const sizes: string[] = [];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'nightjar-pack-'));
    const out = join(work, 'tarballs');
    const packed = ok(
      await run(
        process.execPath,
        [join(ROOT, 'scripts', 'pack.mjs'), '--json', '--allow-type-errors', '--out', out],
        {
          cwd: ROOT,
        },
      ),
      'npm run pack',
    );
    const list = JSON.parse(packed.stdout) as { name: string; file: string; size: number }[];
    tarballs = new Map(list.map((p) => [p.name.replace('@nightjar/', ''), p.file]));
    for (const p of list) sizes.push(`${p.name} ${(p.size / 1e6).toFixed(2)} MB`);
    venueDir = join(work, 'venue');
    venue = await startVenueProcess(venueDir, FAST_SLOTS);
  });

  afterAll(async () => {
    await stopVenueProcess(venue);
    killAll();
    console.log(`tarballs: ${sizes.join(', ')}`);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('has a tarball per package, the circuit artifacts in @nightjar/circuits and no sources or ceremony files', async () => {
    expect([...tarballs.keys()].sort()).toEqual(
      ['app', 'circuits', 'cli', 'crypto', 'engine', 'ledger', 'protocol', 'sdk'].sort(),
    );
    const listing = ok(await run('tar', ['tzf', tarballs.get('circuits')!], { cwd: work }), 'tar').stdout;
    for (const f of [
      'manifest.json',
      'valid_input_v2.zkey',
      'valid_spend_v2.wasm',
      'valid_join_split_v2.vkey.json',
    ])
      expect(listing).toContain(`package/artifacts/${f}`);
    expect(listing).toContain('package/dist/prover-worker-boot.mjs');
    expect(listing).not.toMatch(/\.ptau|\.r1cs|package\/src\/|\.tsbuildinfo/);
  });

  // The two installs run side by side (different directories; npm's cache takes concurrent
  // readers): each waits mostly on npm and the other on proving. `expect` is the test's own.
  it.concurrent(
    'a fresh project installs the SDK with plain npm install and runs place-and-cancel with plain node',
    async ({ expect }) => {
      const app = join(work, 'trader-bot');
      mkdirSync(app);
      writeFileSync(
        join(app, 'package.json'),
        JSON.stringify({
          name: 'trader-bot',
          version: '1.0.0',
          private: true,
          type: 'module',
          // The prover's install script (the SDK's only one) is denied: proofs take the snarkjs
          // fallback (README.md). A tarball's entry is keyed by its file: spec.
          allowScripts: { [`file:${tarballs.get('circuits')}`]: false },
        }),
      );
      const install = ok(
        await run(
          'npm',
          ['install', ...NPM, ...SDK_PACKAGES.map((p) => tarballs.get(p)!), '@types/node@20'],
          {
            cwd: app,
          },
        ),
        'npm install (SDK tarballs)',
      );
      // Nothing native but the optional prover, no server library, no engine warning (issue 32).
      expect(`${install.stdout}${install.stderr}`).not.toMatch(/EBADENGINE/);
      expect(withInstallScripts(app)).toEqual(['@nightjar/circuits']);
      const installed = installedPackages(app);
      expect(installed.filter((p) => SERVER_PACKAGES.includes(p.replace(/^.*\//, '')))).toEqual([]);
      expect(installed).toContain('@nightjar/sdk');
      const backend = ok(
        await run(
          process.execPath,
          [
            '--input-type=module',
            '-e',
            "import('@nightjar/circuits').then((c) => console.log(c.nativeProverAvailable()))",
          ],
          { cwd: app },
        ),
        'nativeProverAvailable',
      );
      expect(backend.stdout.trim()).toBe('false');
      // Every example (place-and-cancel imports its neighbours), each file as JavaScript.
      for (const f of readdirSync(join(ROOT, 'examples')).filter((name) => name.endsWith('.ts')))
        transpile(join(ROOT, 'examples', f), join(app, f.replace(/\.ts$/, '.js')));
      writeFileSync(join(app, 'forbid.mjs'), FORBID_HOOKS);
      writeFileSync(
        join(app, 'register-forbid.mjs'),
        "import { register } from 'node:module';\nregister('./forbid.mjs', import.meta.url);\n",
      );

      const result = await run(
        process.execPath,
        ['--import', './register-forbid.mjs', 'place-and-cancel.js'],
        {
          cwd: app,
          env: { NIGHTJAR_DATA_DIR: venueDir, WALLET_PASSWORD: 'pack-install test' },
          timeout: 240_000,
        },
      );
      ok(result, 'node place-and-cancel.js');
      expect(result.stdout).toMatch(/deposited note/);
      expect(result.stdout).toMatch(/placed \S+/);
      expect(result.stdout).toMatch(/cancelled/);

      // The installed SDK is the compiled one, and no copy of this repository's sources came along.
      const resolved = ok(
        await run(
          process.execPath,
          ['-e', "console.log(import.meta.resolve('@nightjar/sdk'))", '--input-type=module'],
          {
            cwd: app,
          },
        ),
        'resolve @nightjar/sdk',
      ).stdout;
      expect(resolved.trim()).toBe(
        `file://${join(app, 'node_modules', '@nightjar', 'sdk', 'dist', 'index.js')}`,
      );

      // Types: a TypeScript file typechecks against the installed declarations.
      writeFileSync(
        join(app, 'check.ts'),
        `import { createWallet, placeOrder, cancelOrder, type Client, type Wallet } from '@nightjar/sdk';
import { RpcLedgerClient } from '@nightjar/protocol/ledger-client';
export async function bid(client: Client): Promise<string> {
  const { orderId } = await placeOrder(client, { symbol: 'SOL-USDC', side: 'bid', amount: '1', price: '100', expiry: { seconds: 60 } });
  await cancelOrder(client, { orderId });
  return orderId;
}
export const wallet: Wallet = createWallet({ path: 'w.wallet', password: 'x' });
export const ledgerClient: typeof RpcLedgerClient = RpcLedgerClient;
// @ts-expect-error an order needs a symbol
export const bad = (client: Client) => placeOrder(client, { side: 'bid', amount: '1', price: '1' });
`,
      );
      writeFileSync(
        join(app, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            types: ['node'],
          },
          files: ['check.ts'],
        }),
      );
      ok(
        await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], {
          cwd: app,
        }),
        'tsc --noEmit against the installed .d.ts',
      );
    },
  );

  it.concurrent(
    'npm install -g of the tarballs gives a nightjar command that answers --help and status',
    async ({ expect }) => {
      const prefix = join(work, 'global');
      const install = ok(
        // --ignore-scripts: --help and status need neither native build (the venue would need
        // better-sqlite3's: README.md, allowScripts).
        await run(
          'npm',
          ['install', '-g', '--prefix', prefix, '--ignore-scripts', ...NPM, ...tarballs.values()],
          {
            cwd: work,
          },
        ),
        'npm install -g (all tarballs)',
      );
      expect(`${install.stdout}${install.stderr}`).not.toMatch(/EBADENGINE/);
      // Each tarball is a global package of its own: one copy of better-sqlite3 (the ledger's) is
      // one native build.
      const sqlite = installedPackages(join(prefix, 'lib')).filter((p) => p.endsWith('/better-sqlite3'));
      expect(sqlite).toEqual(['@nightjar/ledger/better-sqlite3']);
      const bin = join(prefix, 'bin', 'nightjar');
      const help = ok(await run(bin, ['--help'], { cwd: work }), 'nightjar --help');
      expect(help.stdout).toMatch(/^nightjar <command>/);
      expect(help.stdout).toMatch(/status/);
      const status = ok(
        await run(bin, ['status', '--data-dir', venueDir, '--json'], { cwd: work }),
        'nightjar status',
      );
      const body = JSON.parse(status.stdout) as { system: Record<string, unknown>; transparency: unknown };
      expect(body.system).toBeTypeOf('object');
      expect(body.transparency).toBeDefined();
      // Running a venue needs the release's sources (its compose hash): refused with the fix.
      const start = await run(bin, ['start', '--data-dir', join(work, 'no-venue')], { cwd: work });
      expect(start.code).toBe(2);
      expect(start.stderr).toMatch(/checkout of the Nightjar repository/);
    },
  );
});
