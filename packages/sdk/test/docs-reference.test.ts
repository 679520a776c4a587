/**
 * Every action has a reference entry with a runnable example that a test runs (issue 20, item 8):
 * each verb of `src/actions/index.ts` (and each documented helper under the verbs, which the
 * package exports from its layer) has a `###` heading in docs/sdk.md; each entry
 * (but the lower-level helpers) names the examples it runs in ("Runs in `examples/X.ts`"), each of
 * which exists, is run by examples.proofs.test.ts, and calls the entry's actions. Reads files only.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as actions from '../src/actions/index.js';
import * as sdk from '../src/index.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/**
 * Exported from the package for the actions themselves (and a program that needs a step
 * of one), not actions of their own: they have no reference entry.
 */
const BUILDING_BLOCKS: Record<string, string> = {
  checkExpiry: "placeOrder's expiry check before proving",
  chooseNote: "placeOrder's note choice against the venue's tree (selectNote is the documented one)",
  largestAmount: 'the largest note, for INSUFFICIENT_NOTES',
  venueTree: "the venue's tree view chooseNote reads",
  prepareOrder: 'buildOrder with the nonce left for later (modifyOrder, placeOrders)',
  signOrder: "buildOrder's and modifyOrder's nonce and signature",
  trackPlaced: "placeOrder's record of a placed order in the wallet",
  signCancel: "cancelOrder's signed body",
  marketMints: "mintDecimals' and getBalances' list of mints",
  assetParameter: "the actions' `asset` | `mint` parameter",
  learnAsset: 'lets error messages name an asset',
  recoverDeposits: 'a step of syncWallet',
  syncLeaves: 'a step of syncWallet',
  syncShard: 'a step of syncWallet',
  refreshTrackedOrders: "syncWallet's `refreshOrders`",
  fundingAddresses: "withdraw's check of its recipient (the CLI and the app ask the same)",
};

/**
 * Helpers under the verbs (in core/, notes/, orders/) that have reference entries of their own, as
 * they did when they sat in actions/: documented like the verbs.
 */
const DOCUMENTED_HELPERS = [
  'mergeCandidates',
  'mintDecimals',
  'orderTerms',
  'refreshNoteStates',
  'refreshOrder',
  'resolveAsset',
  'resolveExpirySlot',
  'submitOrder',
];

/** Headings of helpers a program rarely calls: a reference entry, and no example needed. */
const LOWER_LEVEL = /^Lower-level: /;

interface Entry {
  heading: string;
  /** The names the heading shows in code: `getOrder(client, ...)`, `selectNote`. */
  names: string[];
  body: string;
}

/** The `###` entries of docs/sdk.md, each up to the next heading. */
function entries(): Entry[] {
  const out: Entry[] = [];
  for (const part of read('docs/sdk.md').split(/^(?=#{1,3} )/m)) {
    const m = /^### (.*)\n([\s\S]*)$/.exec(part);
    if (!m) continue;
    const heading = m[1]!;
    out.push({ heading, names: [...heading.matchAll(/`(\w+)[(`]/g)].map((n) => n[1]!), body: m[2]! });
  }
  return out;
}

/** The example names examples.proofs.test.ts runs (`runExample('ladder')`). */
function examplesRun(): Set<string> {
  const test = read('packages/sdk/test/examples.proofs.test.ts');
  return new Set([...test.matchAll(/runExample\('([\w-]+)'/g)].map((m) => m[1]!));
}

/** An example's code without its comments, so a call in a comment does not count. */
function exampleCode(name: string): string {
  return read(`examples/${name}.ts`)
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '');
}

/** Whether `code` calls `name(...)` (not `x.name(...)`). */
const calls = (code: string, name: string) => new RegExp(`(?<![\\w.])${name}\\(`).test(code);

const exported = sdk as Record<string, unknown>;
const publicActions = [
  ...Object.entries(actions)
    .filter(([name, value]) => typeof value === 'function' && !(name in BUILDING_BLOCKS))
    .map(([name]) => name),
  ...DOCUMENTED_HELPERS.filter((name) => typeof exported[name] === 'function'),
];

describe('docs/sdk.md reference entries', () => {
  const all = entries();

  it('every building block named as not an action is still exported (the list stays true)', () => {
    for (const name of Object.keys(BUILDING_BLOCKS)) expect(typeof exported[name], name).toBe('function');
  });

  it('every action exported from src/actions has a reference heading', () => {
    const headed = new Set(all.flatMap((e) => e.names));
    expect(publicActions.length).toBeGreaterThan(20);
    for (const name of DOCUMENTED_HELPERS) expect(typeof exported[name], name).toBe('function');
    expect(publicActions.filter((name) => !headed.has(name))).toEqual([]);
  });

  it('every entry of an action names examples that exist, that the examples test runs, and that call it', () => {
    const run = examplesRun();
    expect(run.size).toBeGreaterThanOrEqual(5);
    const problems: string[] = [];
    for (const entry of all) {
      if (LOWER_LEVEL.test(entry.heading)) continue;
      const own = entry.names.filter((name) => publicActions.includes(name));
      if (own.length === 0) continue; // not an action's entry (order states, key derivation...)
      const runsIn = /Runs\s+in\s+([^)]*)\)/.exec(entry.body)?.[1];
      const named = runsIn ? [...runsIn.matchAll(/`examples\/([\w-]+)\.ts`/g)].map((m) => m[1]!) : [];
      if (named.length === 0) {
        problems.push(`${own.join(', ')}: no "(Runs in \`examples/X.ts\`)"`);
        continue;
      }
      const code = new Map<string, string>();
      for (const name of named) {
        if (!existsSync(join(ROOT, 'examples', `${name}.ts`)))
          problems.push(`examples/${name}.ts does not exist`);
        else if (!run.has(name)) problems.push(`examples/${name}.ts is not run by examples.proofs.test.ts`);
        else code.set(name, exampleCode(name));
      }
      for (const action of own)
        if (![...code.values()].some((c) => calls(c, action)))
          problems.push(`${action}: none of ${named.join(', ')} calls it`);
      for (const [name, c] of code)
        if (!own.some((action) => calls(c, action)))
          problems.push(`${own.join(', ')}: examples/${name}.ts calls none of them`);
    }
    expect(problems).toEqual([]);
  });
});
