/** The venue's transport attestation as one line ("Verified ✓"), its checks and identity on demand. */
import type { VenueView } from '../src/api-types.js';
import { formatTime } from './format.js';
import { plainFix } from './plain-fix.js';

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
          {plainFix(venue.error) ? (
            <p>
              <strong>Fix:</strong> {plainFix(venue.error)}
            </p>
          ) : null}
        </>
      ) : null}
      <p>Every trading control is disabled until the app verifies the venue again.</p>
    </div>
  );
}

const STATUS_TEXT: Record<VenueView['attestation'], string> = {
  verified: 'Verified ✓',
  failed: 'Failed ✗',
  checking: 'Checking…',
};

/** A `<dt>`/`<dd>` pair of a code value, none when the value is absent. */
function CodeValue({ label, value, wrap }: { label: string; value: string | undefined; wrap?: boolean }) {
  if (!value) return null;
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <code class={wrap ? 'break' : undefined}>{value}</code>
      </dd>
    </>
  );
}

function AttestationChecks({ checks }: { checks: VenueView['checks'] }) {
  if (checks.length === 0) return <p class="muted">No check has run yet.</p>;
  return (
    <ul class="checks">
      {checks.map((c) => (
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
  );
}

/** The venue's URL, account and attested identity. */
function VenueIdentity({ venue }: { venue: VenueView }) {
  return (
    <dl class="kv">
      <dt>Venue URL</dt>
      <dd>
        <code>{venue.base_url}</code>
      </dd>
      <CodeValue label="Your account" value={venue.account_id} />
      <CodeValue label="Boot session" value={venue.boot_session_id} wrap />
      <CodeValue label="Compose hash" value={venue.compose_hash} wrap />
      <CodeValue label="TLS key (SPKI SHA-256)" value={venue.tls_spki_sha256} wrap />
      {venue.checked_at ? (
        <>
          <dt>Last checked</dt>
          <dd>{formatTime(venue.checked_at)}</dd>
        </>
      ) : null}
    </dl>
  );
}

/** The venue's other engines (markets on several), each verified on its own before it is used. */
function OtherEngines({ engines }: { engines: VenueView['engines'] }) {
  if (!engines || engines.length === 0) return null;
  return (
    <>
      <h3>Other engines</h3>
      <ul class="checks" data-testid="other-engines">
        {engines.map((e) => (
          <li key={e.base_url} class={e.attestation === 'verified' ? 'ok' : 'bad'}>
            <span class="mark" aria-hidden="true">
              {e.attestation === 'verified' ? '✓' : '✗'}
            </span>
            <span>
              <code>{e.base_url}</code> <span class="sr-only">{e.attestation}</span>
              <span class="detail">
                {e.attestation === 'verified'
                  ? `verified ${formatTime(e.checked_at)}, boot ${e.boot_session_id?.slice(0, 16) ?? ''}…`
                  : `FAILED: ${e.error ?? ''} (its markets are refused; the others trade)`}
              </span>
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * One line: the attestation's verdict; its checks and the venue's identity open on demand (a
 * trader comes to trade; the checks stay one click away, and open by themselves when one fails).
 */
export function VenuePanel({ venue }: { venue: VenueView | undefined }) {
  if (!venue)
    return (
      <section class="venue-strip" aria-label="Venue">
        <p class="muted">Loading the venue…</p>
      </section>
    );
  const passed = venue.checks.filter((c) => c.ok).length;
  return (
    <section class="venue-strip" aria-label="Venue">
      <details open={venue.attestation === 'failed'} data-testid="attestation-details">
        <summary>
          <span
            class={`badge att-${venue.attestation}`}
            data-testid="attestation-status"
            title="The venue's transport attestation (open for its checks)"
          >
            {STATUS_TEXT[venue.attestation]}
          </span>{' '}
          <span class="muted">
            <span class="sr-only">venue attestation, </span>
            {venue.checks.length ? `${passed}/${venue.checks.length} checks` : 'details'}
          </span>{' '}
          {venue.dev ? (
            <span class="badge dev" title="Dev venue: the faucet is on">
              Dev venue
            </span>
          ) : null}
        </summary>
        <VenueIdentity venue={venue} />
        <h3>Attestation checks</h3>
        <AttestationChecks checks={venue.checks} />
        <OtherEngines engines={venue.engines} />
      </details>
    </section>
  );
}
