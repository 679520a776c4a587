import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, httpStatusOf, isErrorCode, VenueError } from './errors.js';

/** The spec's Errors table, code → HTTP status, transcribed independently of the catalogue. */
const SPEC_TABLE: Record<number, number> = {
  1000: 400,
  1001: 400,
  1003: 400,
  1004: 400,
  1005: 400,
  1006: 400,
  1007: 400,
  1008: 400,
  1009: 400,
  1010: 400,
  1011: 400,
  1012: 400,
  1101: 401,
  1102: 403,
  1103: 403,
  1150: 403,
  1201: 409,
  1202: 409,
  1203: 409,
  1204: 409,
  1205: 409,
  1206: 409,
  1301: 404,
  1401: 429,
  1402: 503,
  5000: 500,
  5001: 503,
  5002: 503,
};

describe('error catalogue', () => {
  it('matches the spec table exactly, code for code', () => {
    const ours = Object.fromEntries(Object.entries(ERROR_CATALOGUE).map(([c, e]) => [c, e.status]));
    expect(ours).toEqual(Object.fromEntries(Object.entries(SPEC_TABLE).map(([c, s]) => [c, s])));
  });

  it('never emits the reserved 1002', () => {
    expect(isErrorCode(1002)).toBe(false);
  });

  it('keeps the spec wording where the spec fixes it', () => {
    expect(ERROR_CATALOGUE[1150].status).toBe(403);
    expect(httpStatusOf(1402)).toBe(503);
  });

  it('VenueError carries code, status and an envelope', () => {
    const err = new VenueError(1401, 'rate limited; retry in about 2 s', { retryAfterSeconds: 2 });
    expect(err.status).toBe(429);
    expect(err.retryAfterSeconds).toBe(2);
    expect(err.toEnvelope()).toEqual({ code: 1401, message: 'rate limited; retry in about 2 s' });
    expect(new VenueError(1301).message).toBe(ERROR_CATALOGUE[1301].message);
  });
});
