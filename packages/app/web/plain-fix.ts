/**
 * The fix a screen shows: one plain sentence, never an API route or SDK code (those are for API
 * clients, who get them in the JSON's `hint`). The app answers `fix_plain` beside such a `fix`;
 * for a body without it, the clauses naming a route or a JSON body are left out here.
 */
import type { ErrorBody } from './api.js';

/** A route ("POST /api/v1/..."), a JSON body, a data-dir path or a `field: value` in backticks. */
const FOR_API_CLIENTS = /\b(GET|POST|PATCH|PUT|DELETE) \/|\{"|<data-dir>|`\w+: \w+`/;

export function plainFix(e: ErrorBody): string | undefined {
  if (e.fix_plain !== undefined) return e.fix_plain;
  if (!e.fix) return undefined;
  const kept = e.fix
    .replace(/\s*\([^()]*\)/g, (part) => (FOR_API_CLIENTS.test(part) ? '' : part))
    .split(/;\s*/)
    .filter((clause) => !FOR_API_CLIENTS.test(clause))
    .join('; ')
    .trim();
  return kept === '' ? undefined : kept;
}
