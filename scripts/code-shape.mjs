#!/usr/bin/env node
// `node scripts/code-shape.mjs [--list]`: the shape figures issue 31 holds the tree to.
//   - source files over 400 lines (src/, web/ and bin/ of every package; tests, benchmarks,
//     generated code and stylesheets excluded);
//   - functions over 80 lines without a reason: a comment starting `// Long:` right above them;
//   - per package, import circles between files and between folders of src/ (a folder circle is
//     an arrow running back up the layers).
// Exits 1 when any figure is not zero, so it can gate a review; `--list` names every offender.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;
const list = process.argv.includes('--list');

function walk(dir, out = []) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    if (name === 'node_modules' || name === 'dist' || name === 'generated') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.(ts|tsx|mjs)$/.test(name) && !/\.(test|bench|sim)\.[^.]+$|\.d\.ts$/.test(name))
      out.push(path);
  }
  return out;
}

const packages = readdirSync(join(ROOT, 'packages'));
const sources = packages.flatMap((pkg) =>
  ['src', 'web', 'bin'].flatMap((dir) => walk(join(ROOT, 'packages', pkg, dir))),
);

const longFiles = [];
const longFunctions = [];
for (const file of sources) {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > MAX_FILE_LINES) longFiles.push(`${relative(ROOT, file)} (${lines})`);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const length = end - start + 1;
      if (length > MAX_FUNCTION_LINES && !hasReason(text, node)) {
        longFunctions.push(`${relative(ROOT, file)}:${start + 1} ${functionName(node)} (${length})`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

/** A `// Long:` comment above the function (or above the statement that holds it). */
function hasReason(text, node) {
  for (let at = node; at && !ts.isSourceFile(at); at = at.parent) {
    const comments = ts.getLeadingCommentRanges(text, at.getFullStart()) ?? [];
    if (comments.some((c) => /^\/\/\s*Long:/m.test(text.slice(c.pos, c.end)))) return true;
    if (ts.isStatement(at) || ts.isClassElement(at)) break;
  }
  return false;
}

function functionName(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)))
    return parent.name.getText();
  return '(anonymous)';
}

/** File and folder import circles of one package's src/ (relative imports only). */
function circles(pkg) {
  const srcDir = join(ROOT, 'packages', pkg, 'src');
  const files = walk(srcDir);
  const edges = new Map();
  for (const file of files) {
    const targets = new Set();
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:import|export)[^'"]*?from\s+['"](\.[^'"]+)['"]/g)) {
      const target = resolve(dirname(file), match[1]).replace(/\.js$/, '.ts');
      const candidates = [target, target.replace(/\.ts$/, '.tsx'), join(target, 'index.ts')];
      const found = candidates.find((c) => files.includes(c));
      if (found) targets.add(found);
    }
    edges.set(file, targets);
  }
  // A file at the top of src/ is a layer of its own (index.ts imports every folder by design).
  const folderOf = (file) => relative(srcDir, dirname(file)).split(sep)[0] || relative(srcDir, file);
  const folderEdges = new Map();
  for (const [from, targets] of edges)
    for (const to of targets) {
      const a = folderOf(from);
      const b = folderOf(to);
      if (a === b) continue;
      if (!folderEdges.has(a)) folderEdges.set(a, new Set());
      folderEdges.get(a).add(b);
    }
  const name = (f) => relative(join(ROOT, 'packages', pkg, 'src'), f);
  return {
    files: stronglyConnected(edges).map((c) => c.map(name).join(' ↔ ')),
    folders: stronglyConnected(folderEdges).map((c) => c.join(' ↔ ')),
  };
}

/** Tarjan's strongly connected components with more than one member. */
function stronglyConnected(edges) {
  let index = 0;
  const indexOf = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const out = [];
  const connect = (v) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!indexOf.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), indexOf.get(w)));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!indexOf.has(v)) connect(v);
  return out;
}

const cycles = packages.map((pkg) => ({ pkg, ...circles(pkg) }));
const fileCircles = cycles.flatMap((c) => c.files.map((f) => `${c.pkg}: ${f}`));
const folderCircles = cycles.flatMap((c) => c.folders.map((f) => `${c.pkg}: ${f}`));

const report = [
  [`source files over ${MAX_FILE_LINES} lines`, longFiles],
  [`functions over ${MAX_FUNCTION_LINES} lines without a "// Long:" reason`, longFunctions],
  ['file import circles', fileCircles],
  ['folder import circles', folderCircles],
];
for (const [what, items] of report) {
  process.stdout.write(`${items.length} ${what}\n`);
  if (list) for (const item of items) process.stdout.write(`  ${item}\n`);
}
process.exitCode = report.some(([, items]) => items.length > 0) ? 1 : 0;
