/**
 * DEV-ONLY trusted setup for the circuits of src/artifacts.ts (CIRCUITS).
 *
 *   npm run ceremony -w packages/circuits            (full run, a few minutes on 2 cores)
 *   npm run ceremony -w packages/circuits -- --reuse-ptau   (keep build/ phase-1 output)
 *   npm run ceremony -w packages/circuits -- --only valid_match_v2
 *       (set up only the named circuits, comma-separated, and the phase-1 files they need; every
 *       other circuit's artifacts and manifest entries stay byte for byte as committed)
 *   npm run ceremony -w packages/circuits -- --only valid_lock --committed-ptau
 *       (phase 2 only, on the committed phase-1 files: the other circuits' keys still verify
 *       against the ptau beside them)
 *
 * !!! NOT A REAL CEREMONY. !!!  One machine plays every participant: the phase-1 powers of tau
 * are generated here (no download), each phase has a single contribution whose entropy string is
 * written below in plain text, and the final beacon hash is a fixed public constant. snarkjs mixes
 * 64 bytes of OS randomness into each contribution, so the toxic waste is not trivially derivable
 * from this file, but nothing proves it was destroyed: anyone who ran the script could have kept
 * it and could forge proofs. Fine for development and tests, never for real value. A production
 * deployment needs a multi-party phase 2 on top of a public phase-1 transcript.
 *
 * Steps:
 *  1. compile circuits/<name>.circom of each circuit with circom2 (--O2) into build/ (r1cs, wasm,
 *     sym);
 *  2. phase 1 (bn128), once per power the circuits need (13 for most, 15 for VALID_MATCH v2 and
 *     VALID_JOIN_SPLIT v2, see CIRCUITS[name].ptau): new accumulator, one contribution, a fixed
 *     beacon, prepare phase 2, verify;
 *  3. phase 2 per circuit: groth16 setup, one contribution, a fixed beacon, verify against the
 *     r1cs and the ptau, export the verification key;
 *  4. copy wasm, zkey, vkey and r1cs to artifacts/, and the phase-1 outputs (pot13_final.ptau,
 *     pot15_final.ptau) so
 *     anyone can run `snarkjs zkey verify` on the committed keys; write artifacts/manifest.json
 *     with the SHA-256 of every artifact, each contribution's hash and `"dev_only": true`.
 *
 * Deterministic parts: the circom outputs (wasm, r1cs) are byte-for-byte reproducible from the
 * sources. The ptau and zkeys are not (snarkjs always mixes OS randomness into a contribution),
 * so a rerun produces new zkeys and verification keys with new hashes.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  CIRCUITS,
  MANIFEST_FILE,
  PTAU_FILE,
  type ArtifactManifest,
  type CircuitName,
} from '../src/artifacts.js';
import { loadSnarkjs } from '@nightjar/crypto';

import { CIRCUITS_DIR, circuitSourceSha256 } from './circuit-sources.js';
import { preparePhase2 } from './prepare-phase2.js';

const require = createRequire(import.meta.url);

/**
 * Power of PTAU_FILE: the smallest that holds VALID_SPEND v2 (7,435 constraints + 10 public wires <=
 * 2^13). VALID_MATCH v2 (9.5k) and VALID_JOIN_SPLIT v2 need 15 and have their own phase-1 file.
 */
export const PTAU_POWER = 13;

/** DEV-ONLY entropy strings. Public on purpose: this setup is not secure. */
export const PHASE1_ENTROPY = 'nightjar dev ceremony / phase 1 / contribution 1 / PUBLIC, DEV ONLY';
/** Per phase-1 power; 13 keeps the string of the first ceremony. */
export const PHASE1_ENTROPY_BY_POWER: Readonly<Record<number, string>> = {
  13: PHASE1_ENTROPY,
  15: 'nightjar dev ceremony / phase 1 / power 15 / contribution 1 / PUBLIC, DEV ONLY',
};
export const PHASE2_ENTROPY: Record<CircuitName, string> = {
  valid_input_v2: 'nightjar dev ceremony / phase 2 / valid_input_v2 / contribution 1 / PUBLIC, DEV ONLY',
  valid_lock: 'nightjar dev ceremony / phase 2 / valid_lock / contribution 1 / PUBLIC, DEV ONLY',
  valid_match_v2: 'nightjar dev ceremony / phase 2 / valid_match_v2 / contribution 1 / PUBLIC, DEV ONLY',
  valid_spend_v2: 'nightjar dev ceremony / phase 2 / valid_spend_v2 / contribution 1 / PUBLIC, DEV ONLY',
  valid_join_split_v2:
    'nightjar dev ceremony / phase 2 / valid_join_split_v2 / contribution 1 / PUBLIC, DEV ONLY',
};

/** The power of a phase-1 file named `pot<power>_final.ptau`. */
export function ptauPower(file: string): number {
  const m = /^pot(\d+)_final\.ptau$/.exec(file);
  if (!m?.[1]) throw new Error(`cannot read the power of ${file}`);
  return Number(m[1]);
}

/**
 * Whether the phase-1 run at `power` ends with a beacon and a full `powersoftau verify`. The
 * power-15 run does not: on the 2-core dev machine each pass over a power-15 accumulator took
 * ~45 min under load, and these keys are dev-only whatever the beacon (one machine made every
 * contribution). The zkey is still checked against the ptau (`npm run verify-ceremony`).
 */
export const PHASE1_BEACON_BY_POWER: Readonly<Record<number, boolean>> = { 13: true, 15: false };

/** Contribution name of the phase-1 run at `power` (13 keeps the first ceremony's name). */
function phase1Name(power: number): string {
  return power === PTAU_POWER ? 'nightjar dev phase 1 #1' : `nightjar dev phase 1 (power ${power}) #1`;
}
/** The beacon is SHA-256 of this fixed string (hex below), iterated 2^BEACON_ITERATIONS_EXP times. */
export const BEACON_SOURCE = 'nightjar/dev-ceremony/beacon/v1';
export const BEACON_HASH = createHash('sha256').update(BEACON_SOURCE).digest('hex');
export const BEACON_ITERATIONS_EXP = 10;

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const BUILD_DIR = join(PACKAGE_DIR, 'build');
const ARTIFACTS_DIR = join(PACKAGE_DIR, 'artifacts');

const logger = {
  debug: () => {},
  info: (msg: string) => console.log(`  ${msg}`),
  warn: (msg: string) => console.warn(`  warn: ${msg}`),
  error: (msg: string) => console.error(`  error: ${msg}`),
};

function step(msg: string): void {
  console.log(`[ceremony ${new Date().toISOString()}] ${msg}`);
}

function packageVersion(name: string): string {
  // Resolve the package's main entry, then walk up to its package.json (some packages do not
  // export ./package.json).
  let dir = dirname(require.resolve(name));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === name && pkg.version) return pkg.version;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find package.json of ${name}`);
    dir = parent;
  }
}

function circomCli(): { cli: string; nodeModules: string } {
  const cli = join(dirname(require.resolve('circom2/package.json')), 'cli.js');
  // circomlib's location gives the include root for `include "circomlib/circuits/..."`.
  const circomlibDir = dirname(require.resolve('circomlib/package.json'));
  return { cli, nodeModules: dirname(circomlibDir) };
}

function runCircom(args: string[], cwd: string): string {
  const { cli } = circomCli();
  const res = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8' });
  if (res.status !== 0) {
    throw new Error(`circom2 ${args.join(' ')} failed (${res.status}):\n${res.stdout}\n${res.stderr}`);
  }
  return res.stdout;
}

export function circomVersion(): string {
  const { nodeModules } = circomCli();
  const out = runCircom(['--version'], dirname(nodeModules));
  const m = /circom compiler (\S+)/.exec(out);
  if (!m?.[1]) throw new Error(`cannot parse circom version from: ${out}`);
  return m[1];
}

/**
 * Compile circuits/<name>.circom into `outDir` (r1cs, sym, <name>_js/<name>.wasm): any circuit,
 * not only the ceremony's (the settlement v2 tests compile theirs with it). circom2 runs under WASI
 * with the working directory's ancestors preopened, so every path handed to it is made relative
 * to a directory that contains both the sources and node_modules.
 */
export function compileCircuit(name: string, outDir: string): void {
  const { nodeModules } = circomCli();
  const cwd = dirname(nodeModules);
  mkdirSync(outDir, { recursive: true });
  runCircom(
    [
      relative(cwd, join(CIRCUITS_DIR, `${name}.circom`)),
      '--r1cs',
      '--wasm',
      '--sym',
      '--O2',
      '-o',
      relative(cwd, outDir),
      '-l',
      relative(cwd, nodeModules),
    ],
    cwd,
  );
}

export function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** snarkjs returns a contribution's hash (BLAKE2b-512) as bytes; the manifest keeps it in hex. */
function hashHex(hash: unknown): string | undefined {
  return hash instanceof Uint8Array ? Buffer.from(hash).toString('hex') : undefined;
}

/** Contribution hashes, in order, as snarkjs prints them: a participant finds theirs in the manifest. */
const transcript: { phase1: Record<number, string[]>; phase2: Record<string, string[]> } = {
  phase1: {},
  phase2: {},
};

async function phase1(power: number): Promise<string> {
  const snarkjs = await loadSnarkjs();
  const p = (s: string) => join(BUILD_DIR, `pot${power}_${s}.ptau`);
  const final = p('final');
  const entropy = PHASE1_ENTROPY_BY_POWER[power];
  if (entropy === undefined) throw new Error(`no phase-1 entropy string for power ${power}`);
  // Contribution hashes of a phase-1 run, kept beside its output so a reuse still records them.
  const hashesFile = p('hashes').replace(/\.ptau$/, '.json');
  const keepHashes = (hashes: (string | undefined)[]) => {
    transcript.phase1[power] = hashes.filter((h): h is string => h !== undefined);
    writeFileSync(hashesFile, `${JSON.stringify(transcript.phase1[power])}\n`);
  };
  if (process.argv.includes('--reuse-ptau') && existsSync(final)) {
    step(`phase 1: reusing ${relative(PACKAGE_DIR, final)}`);
    if (existsSync(hashesFile))
      transcript.phase1[power] = JSON.parse(readFileSync(hashesFile, 'utf8')) as string[];
    return final;
  }
  step(`phase 1: new accumulator, bn128, power ${power}`);
  const curve = await snarkjs.curves.getCurveFromName('bn128');
  try {
    await snarkjs.powersOfTau.newAccumulator(curve, power, p('0000'), logger);
  } finally {
    await curve.terminate();
  }
  step(`phase 1 (power ${power}): contribution 1 (dev entropy)`);
  const contribution = await snarkjs.powersOfTau.contribute(
    p('0000'),
    p('0001'),
    phase1Name(power),
    entropy,
    logger,
  );
  if (!PHASE1_BEACON_BY_POWER[power]) {
    keepHashes([hashHex(contribution)]);
    step(`phase 1 (power ${power}): prepare phase 2 (no beacon, see PHASE1_BEACON_BY_POWER)`);
    await preparePhase2(p('0001'), final, { logger });
    return final;
  }
  step(`phase 1: beacon ${BEACON_HASH} 2^${BEACON_ITERATIONS_EXP}`);
  const beacon = await snarkjs.powersOfTau.beacon(
    p('0001'),
    p('beacon'),
    'nightjar dev phase 1 beacon',
    BEACON_HASH,
    BEACON_ITERATIONS_EXP,
    logger,
  );
  keepHashes([hashHex(contribution), hashHex(beacon)]);
  step('phase 1: prepare phase 2');
  await preparePhase2(p('beacon'), final, { logger });
  step('phase 1: verify');
  if (!(await snarkjs.powersOfTau.verify(final, logger))) throw new Error('phase 1 verification failed');
  return final;
}

interface CircuitResult {
  constraints: number;
  wires: number;
  publicInputs: number;
  privateInputs: number;
}

async function phase2(name: CircuitName, ptau: string): Promise<CircuitResult> {
  const snarkjs = await loadSnarkjs();
  const r1cs = join(BUILD_DIR, `${name}.r1cs`);
  const wasm = join(BUILD_DIR, `${name}_js`, `${name}.wasm`);
  const z = (s: string) => join(BUILD_DIR, `${name}_${s}.zkey`);
  const info = await snarkjs.r1cs.info(r1cs);
  const power = ptauPower(CIRCUITS[name].ptau);
  if (info.nConstraints + info.nPubInputs + info.nOutputs + 1 > 2 ** power) {
    throw new Error(`${name}: ${info.nConstraints} constraints do not fit power ${power}`);
  }
  step(`phase 2 ${name}: groth16 setup (${info.nConstraints} constraints)`);
  await snarkjs.zKey.newZKey(r1cs, ptau, z('0000'), logger);
  step(`phase 2 ${name}: contribution 1 (dev entropy)`);
  const contribution = await snarkjs.zKey.contribute(
    z('0000'),
    z('0001'),
    `nightjar dev ${name} #1`,
    PHASE2_ENTROPY[name],
    logger,
  );
  step(`phase 2 ${name}: beacon`);
  const beacon = await snarkjs.zKey.beacon(
    z('0001'),
    z('final'),
    `nightjar dev ${name} beacon`,
    BEACON_HASH,
    BEACON_ITERATIONS_EXP,
    logger,
  );
  transcript.phase2[name] = [hashHex(contribution), hashHex(beacon)].filter((h) => h !== undefined);
  // --no-verify leaves this check to `npm run verify-ceremony` (the same snarkjs call).
  step(`phase 2 ${name}: verify zkey against r1cs and ptau`);
  if (
    !process.argv.includes('--no-verify') &&
    !(await snarkjs.zKey.verifyFromR1cs(r1cs, ptau, z('final'), logger))
  ) {
    throw new Error(`${name}: zkey verification failed`);
  }
  const vkey = await snarkjs.zKey.exportVerificationKey(z('final'));

  const files = CIRCUITS[name];
  copyFileSync(wasm, join(ARTIFACTS_DIR, files.wasm));
  copyFileSync(z('final'), join(ARTIFACTS_DIR, files.zkey));
  copyFileSync(r1cs, join(ARTIFACTS_DIR, files.r1cs));
  writeFileSync(join(ARTIFACTS_DIR, files.vkey), `${JSON.stringify(vkey, null, 2)}\n`);
  return {
    constraints: info.nConstraints,
    wires: info.nVars,
    publicInputs: info.nPubInputs + info.nOutputs,
    privateInputs: info.nPrvInputs,
  };
}

/** The circuits named by `--only a,b` (default: all). */
function selectedCircuits(): CircuitName[] {
  const all = Object.keys(CIRCUITS) as CircuitName[];
  const i = process.argv.indexOf('--only');
  if (i < 0) return all;
  const names = (process.argv[i + 1] ?? '').split(',').filter((n) => n !== '');
  const unknown = names.filter((n) => !all.includes(n as CircuitName));
  if (names.length === 0 || unknown.length > 0) {
    throw new Error(
      `--only takes circuit names from ${all.join(', ')} (got ${process.argv[i + 1] ?? 'nothing'})`,
    );
  }
  return names as CircuitName[];
}

interface Phase1Record {
  ptau: string;
  power?: number;
  contributions: { name: string; entropy: string }[];
  contribution_hashes: string[];
  /** null: this phase-1 run has no beacon (PHASE1_BEACON_BY_POWER). */
  beacon: { hash: string; source: string; iterations_exp: number } | null;
}

interface Phase2Record {
  circuit: string;
  name: string;
  entropy: string;
  contribution_hashes: string[];
}

function phase1Record(power: number): Phase1Record {
  return {
    ptau: `pot${power}_final.ptau`,
    ...(power === PTAU_POWER ? {} : { power }),
    contributions: [{ name: phase1Name(power), entropy: PHASE1_ENTROPY_BY_POWER[power] ?? '' }],
    contribution_hashes: transcript.phase1[power] ?? [],
    beacon: PHASE1_BEACON_BY_POWER[power]
      ? { hash: BEACON_HASH, source: `sha256("${BEACON_SOURCE}")`, iterations_exp: BEACON_ITERATIONS_EXP }
      : null,
  };
}

async function main(): Promise<void> {
  const started = Date.now();
  step('DEV-ONLY ceremony: the resulting keys are NOT secure (see scripts/ceremony.ts)');
  mkdirSync(BUILD_DIR, { recursive: true });
  mkdirSync(ARTIFACTS_DIR, { recursive: true });

  const names = selectedCircuits();
  const partial = names.length < Object.keys(CIRCUITS).length;
  // A partial run adds to the committed manifest: the other circuits keep their keys and entries.
  const previous = partial
    ? (JSON.parse(readFileSync(join(ARTIFACTS_DIR, MANIFEST_FILE), 'utf8')) as ArtifactManifest)
    : undefined;
  const versions = {
    circom: circomVersion(),
    circom2_npm: packageVersion('circom2'),
    snarkjs: packageVersion('snarkjs'),
    circomlib: packageVersion('circomlib'),
  };
  if (previous && JSON.stringify(previous.versions) !== JSON.stringify(versions)) {
    throw new Error(
      `installed tool versions ${JSON.stringify(versions)} differ from the manifest's ` +
        `${JSON.stringify(previous.versions)}: rerun the whole ceremony instead of --only`,
    );
  }

  for (const name of names) {
    // --reuse-build keeps a compile already in build/ (compiles are deterministic: npm run verify-ceremony checks).
    if (process.argv.includes('--reuse-build') && existsSync(join(BUILD_DIR, `${name}.r1cs`))) {
      step(`compile ${name}: reusing build/${name}.r1cs`);
      continue;
    }
    step(`compile ${name}`);
    compileCircuit(name, BUILD_DIR);
  }
  // --committed-ptau: phase 2 on the committed phase-1 files, which stay as they are (with their
  // manifest records), so every other circuit's key still verifies against them.
  const committedPtau = process.argv.includes('--committed-ptau');
  if (committedPtau && !previous) throw new Error('--committed-ptau needs --only (a partial run)');
  const ptauFiles = committedPtau ? [] : [...new Set(names.map((n) => CIRCUITS[n].ptau))];
  const ptaus = new Map<string, string>();
  for (const file of ptauFiles) ptaus.set(file, await phase1(ptauPower(file)));
  const ptauOf = (file: string) => ptaus.get(file) ?? join(ARTIFACTS_DIR, file);

  const results = {} as Record<CircuitName, CircuitResult>;
  for (const name of names) results[name] = await phase2(name, ptauOf(CIRCUITS[name].ptau));

  // The phase-1 outputs are committed beside the zkeys so anyone can run `snarkjs zkey verify`.
  const files: ArtifactManifest['files'] = previous ? { ...previous.files } : {};
  for (const [file, path] of ptaus) {
    copyFileSync(path, join(ARTIFACTS_DIR, file));
    files[file] = { sha256: sha256File(join(ARTIFACTS_DIR, file)), bytes: statSync(path).size };
  }
  const circuits = (previous ? { ...previous.circuits } : {}) as ArtifactManifest['circuits'];
  for (const name of names) {
    const c = CIRCUITS[name];
    for (const f of [c.wasm, c.zkey, c.vkey, c.r1cs]) {
      const path = join(ARTIFACTS_DIR, f);
      files[f] = { sha256: sha256File(path), bytes: statSync(path).size };
    }
    circuits[name] = {
      source: `circuits/${name}.circom`,
      source_sha256: circuitSourceSha256(name),
      template: c.template,
      constraints: results[name].constraints,
      wires: results[name].wires,
      public_inputs: [...c.publicInputs],
      private_inputs_count: results[name].privateInputs,
      ...(c.ptau === PTAU_FILE ? {} : { ptau: c.ptau, ptau_power: ptauPower(c.ptau) }),
      files: { wasm: c.wasm, zkey: c.zkey, vkey: c.vkey, r1cs: c.r1cs },
    };
  }

  const prevCeremony = (previous?.ceremony ?? {}) as {
    phase1?: Phase1Record;
    phase1_more?: Phase1Record[];
    phase2?: { contributions: Phase2Record[]; beacon: Phase1Record['beacon'] };
  };
  // phase1 stays the power-13 run (PTAU_FILE); other powers are listed in phase1_more.
  let phase1Main = prevCeremony.phase1;
  const phase1More = (prevCeremony.phase1_more ?? []).filter((r) => !ptaus.has(r.ptau));
  for (const file of ptauFiles) {
    const record = phase1Record(ptauPower(file));
    if (file === PTAU_FILE) phase1Main = record;
    else phase1More.push(record);
  }
  phase1More.sort((a, b) => (a.power ?? 0) - (b.power ?? 0));
  const phase2Records = (prevCeremony.phase2?.contributions ?? []).filter(
    (r) => !names.includes(r.circuit as CircuitName),
  );
  for (const n of names) {
    phase2Records.push({
      circuit: n,
      name: `nightjar dev ${n} #1`,
      entropy: PHASE2_ENTROPY[n],
      contribution_hashes: transcript.phase2[n] ?? [],
    });
  }
  const order = Object.keys(CIRCUITS);
  phase2Records.sort((a, b) => order.indexOf(a.circuit) - order.indexOf(b.circuit));

  const manifest: ArtifactManifest = {
    dev_only: true,
    warning:
      'DEV-ONLY trusted setup generated on one machine by scripts/ceremony.ts. Whoever ran it may know the ' +
      'toxic waste and forge proofs. Never use these keys for real value.',
    curve: 'bn128',
    protocol: 'groth16',
    ptau_power: PTAU_POWER,
    versions,
    circom_flags: ['--O2'],
    ceremony: {
      phase1: phase1Main,
      ...(phase1More.length > 0 ? { phase1_more: phase1More } : {}),
      phase2: {
        contributions: phase2Records,
        beacon: {
          hash: BEACON_HASH,
          source: `sha256("${BEACON_SOURCE}")`,
          iterations_exp: BEACON_ITERATIONS_EXP,
        },
      },
      note:
        'snarkjs mixes 64 bytes of OS randomness into every contribution, so zkeys differ between runs. ' +
        'contribution_hashes: snarkjs BLAKE2b-512 contribution hashes, the beacon last. Check with ' +
        '`snarkjs zkey verify <circuit>.r1cs <ptau> <circuit>.zkey`, where <ptau> is ' +
        PTAU_FILE +
        ' unless the circuit entry names its own `ptau`.',
    },
    circuits,
    files,
  };
  writeFileSync(join(ARTIFACTS_DIR, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  if (!process.argv.includes('--keep-build')) {
    for (const file of ptauFiles) {
      for (const s of ['0000', '0001', 'beacon']) {
        rmSync(join(BUILD_DIR, `pot${ptauPower(file)}_${s}.ptau`), { force: true });
      }
    }
  }
  step(
    `done in ${((Date.now() - started) / 1000).toFixed(1)} s; artifacts in ${relative(process.cwd(), ARTIFACTS_DIR)}`,
  );
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1]);
if (isMain) {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
