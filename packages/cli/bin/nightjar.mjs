#!/usr/bin/env node
// Runs the TypeScript CLI directly (the workspace has no build step).
import { tsImport } from 'tsx/esm/api';

await tsImport('../src/main.ts', import.meta.url);
