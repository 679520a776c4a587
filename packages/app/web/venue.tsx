/** The venue's identity and its transport attestation, check by check. */
import type { VenueView } from '../src/api-types.js';
import { formatTime } from './format.js';

export const FAILED_HEADLINE = "The venue's attestation failed: nothing is sent";

export function AttestationBanner({ venue }: { venue: VenueView | undefined }) {
  if (venue?.attestation !== 'failed') return null;
  return (
    <div class="banner-failed" role="alert">
      <p class="headline">{FAILED_HEADLINE}</p>
      {venue.error ? (
        <>
          <p>
            {venue.error.message}
            {venue.error.venue_code !== undefined ? ` (code ${String(venue.error.venue_code)})` : ''}
          </p>
          {venue.error.fix ? (
            <p>
              <strong>Fix:</strong> {venue.error.fix}
            </p>
          ) : null}
        </>
      ) : null}
      <p>Every trading control is disabled until the app verifies the venue again.</p>
    </div>
  );
}

const STATUS_TEXT: Record<VenueView['attestation'], string> = {
  verified: 'Verified',
  failed: 'Failed',
  checking: 'Checking…',
};

export function VenuePanel({ venue }: { venue: VenueView | undefined }) {
  return (
    <section class="card" aria-labelledby="venue-h">
      <h2 id="venue-h">Venue</h2>
      {!venue ? (
        <p class="muted">Loading the venue…</p>
      ) : (
        <>
          <p class="venue-line">
            <span class={`badge att-${venue.attestation}`} data-testid="attestation-status">
              Attestation: {STATUS_TEXT[venue.attestation]}
            </span>
            {venue.dev ? <span class="badge dev">Dev venue (faucet on)</span> : null}
          </p>
          <dl class="kv">
            <dt>Venue URL</dt>
            <dd>
              <code>{venue.base_url}</code>
            </dd>
            {venue.account_id ? (
              <>
                <dt>Your account</dt>
                <dd>
                  <code>{venue.account_id}</code>
                </dd>
              </>
            ) : null}
            {venue.boot_session_id ? (
              <>
                <dt>Boot session</dt>
                <dd>
                  <code class="break">{venue.boot_session_id}</code>
                </dd>
              </>
            ) : null}
            {venue.compose_hash ? (
              <>
                <dt>Compose hash</dt>
                <dd>
                  <code class="break">{venue.compose_hash}</code>
                </dd>
              </>
            ) : null}
            {venue.tls_spki_sha256 ? (
              <>
                <dt>TLS key (SPKI SHA-256)</dt>
                <dd>
                  <code class="break">{venue.tls_spki_sha256}</code>
                </dd>
              </>
            ) : null}
            {venue.checked_at ? (
              <>
                <dt>Last checked</dt>
                <dd>{formatTime(venue.checked_at)}</dd>
              </>
            ) : null}
          </dl>
          <h3>Attestation checks</h3>
          {venue.checks.length === 0 ? (
            <p class="muted">No check has run yet.</p>
          ) : (
            <ul class="checks">
              {venue.checks.map((c) => (
                <li key={c.id} class={c.ok ? 'ok' : 'bad'} data-testid={`check-${c.id}`}>
                  <span class="mark" aria-hidden="true">
                    {c.ok ? '✓' : '✗'}
                  </span>
                  <span>
                    <strong>{c.title.startsWith(`(${c.id})`) ? c.title : `(${c.id}) ${c.title}`}</strong>{' '}
                    <span class="sr-only">{c.ok ? 'passed' : 'failed'}</span>
                    <span class="detail">{c.detail}</span>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
