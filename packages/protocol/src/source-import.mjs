// Loads a package's TypeScript sources where no compiled file stands in for them: a worker
// thread's entry (Node 20 does not apply `--import tsx` or the parent's module hooks inside worker
// threads) or the `nightjar` command run from the repository. Plain JavaScript, so it runs before
// anything can load TypeScript. @nightjar/* imports resolve to their src/ (the "nightjar-source"
// export condition) and TypeScript loads through tsx's scoped API.
import { register } from 'node:module';

/** Imports `specifier` (a .ts path relative to `parentUrl`) from the sources. */
export async function importSource(specifier, parentUrl) {
  register(
    'data:text/javascript,' +
      encodeURIComponent(
        'export async function resolve(specifier, context, next) {' +
          " return next(specifier, { ...context, conditions: [...context.conditions, 'nightjar-source'] }); }",
      ),
  );
  const { tsImport } = await import('tsx/esm/api');
  return tsImport(specifier, parentUrl);
}
