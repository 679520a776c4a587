/**
 * Version 1: the shared accounts (accounts/pg-store.ts) and the shared rate-limit buckets
 * (limits/pg-rate-limiter.ts). The token MAC key is never stored here: each engine keeps its own.
 */
import type { Migration } from './migration.js';

export const ACCOUNTS_MIGRATION: Migration = {
  version: 1,
  name: 'accounts',
  sql: `
CREATE TABLE accounts (
  account_id text PRIMARY KEY,
  api_key text NOT NULL UNIQUE,
  api_secret_hash text NOT NULL,
  passphrase_hash text NOT NULL,
  is_admin boolean NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  label text,
  tokens_valid_after_s bigint NOT NULL DEFAULT 0,
  cancel_on_disconnect_default boolean NOT NULL DEFAULT false,
  created_at_ms bigint NOT NULL
);
CREATE TABLE revoked_tokens (
  jti text PRIMARY KEY,
  account_id text NOT NULL,
  expires_at_ms bigint NOT NULL
);
CREATE INDEX revoked_tokens_expiry ON revoked_tokens (expires_at_ms);
CREATE TABLE rate_buckets (
  bucket text NOT NULL,
  key text NOT NULL,
  micros bigint NOT NULL,
  at_ms bigint NOT NULL,
  granted boolean NOT NULL,
  PRIMARY KEY (bucket, key)
);
`,
};
