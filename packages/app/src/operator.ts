/**
 * The operator's side: an admin login held by the app, per session (the credentials never go back
 * to the browser), and the venue's admin and public operations views: system status,
 * transparency per mint in human units, settlement metrics per stage, drain, accounts.
 */
import {
  createClient,
  FORBIDDEN_CODES,
  isNightjarError,
  formatUnits,
  type Client,
  type Credentials,
  type SystemStatusResponse,
} from '@nightjar/sdk';
import type {
  AccountView,
  CreateAccountRequest,
  CreatedAccountView,
  DrainView,
  MetricsView,
  OperatorLoginRequest,
  OperatorStatusView,
  TransparencyView,
} from './api-types.js';
import { AppError } from './errors.js';
import { plain } from './json.js';
import type { AppState } from './state.js';
import type { Asset } from './trading/markets.js';
import type { VenueSession } from './venue.js';

interface Operator {
  client: Client;
  apiKey: string;
}

export class Operators {
  /** Operator logins by session id. */
  private readonly bySession = new Map<string, Operator>();
  private readonly accounts: Map<string, AccountView>;

  constructor(
    private readonly venue: VenueSession,
    private readonly state: AppState,
    private readonly assets: () => Promise<Asset[]>,
  ) {
    this.accounts = new Map(state.load<AccountView[]>('accounts.json', []).map((a) => [a.api_key, a]));
  }

  async login(
    sessionId: string,
    req: OperatorLoginRequest,
  ): Promise<{ logged_in: true; api_key: string; account_id: string }> {
    let creds: Credentials;
    if (req.dev) {
      if (!this.venue.admin)
        throw new AppError(
          403,
          'DEV_ONLY',
          'no dev admin: this venue is not in dev mode',
          "log in with the admin account's api_key, api_secret and passphrase",
        );
      creds = this.venue.admin;
    } else creds = { api_key: req.api_key!, api_secret: req.api_secret!, passphrase: req.passphrase! };
    // Never before a passed attestation: clientParameters throws ATTESTATION_FAILED first.
    const client = await createClient(this.venue.clientParameters(creds));
    try {
      // An admin-only read: a non-admin account is refused here, not at the first click.
      await client.request('/admin/drain');
    } catch (err) {
      await client.close();
      if (isNightjarError(err, FORBIDDEN_CODES))
        throw new AppError(
          403,
          'NOT_ADMIN',
          'this account is not an admin (or is suspended)',
          'log in with an admin account',
          err.code,
        );
      throw err;
    }
    await this.logout(sessionId);
    this.bySession.set(sessionId, { client, apiKey: creds.api_key });
    return { logged_in: true, api_key: creds.api_key, account_id: client.accountId };
  }

  /** The operator login follows its session to a new id (the cookie is rotated at login). */
  moveSession(from: string, to: string): void {
    const op = this.bySession.get(from);
    if (!op) return;
    this.bySession.delete(from);
    this.bySession.set(to, op);
  }

  /** Whether `sessionId` holds an operator login: what the page asks before any admin read. */
  sessionView(sessionId: string): { logged_in: boolean; api_key?: string; account_id?: string } {
    const op = this.bySession.get(sessionId);
    return op
      ? { logged_in: true, api_key: op.apiKey, account_id: op.client.accountId }
      : { logged_in: false };
  }

  async logout(sessionId: string): Promise<void> {
    const op = this.bySession.get(sessionId);
    this.bySession.delete(sessionId);
    await op?.client.close();
  }

  /** Throws unless the session holds an operator login (and the venue is verified). */
  authorize(sessionId: string): void {
    this.require(sessionId);
  }

  private require(sessionId: string): Client {
    this.venue.require();
    const op = this.bySession.get(sessionId);
    if (!op)
      throw new AppError(
        401,
        'OPERATOR_LOGIN_REQUIRED',
        'this needs an operator login',
        'POST /api/v1/operator/login with the admin credentials (or {"dev": true} on a dev venue)',
      );
    return op.client;
  }

  async status(sessionId: string): Promise<OperatorStatusView> {
    const c = this.require(sessionId);
    const [system, drain] = await Promise.all([
      c.request('/system/status', { auth: false }).then((s) => plain<SystemStatusResponse>(s)),
      c.request('/admin/drain').then((d) => plain<DrainView>(d)),
    ]);
    return {
      matching: system.matching,
      settlement: system.settlement,
      ledger: system.ledger,
      trading: system.trading,
      draining: system.draining,
      slot: String(system.slot),
      drain: drainView(drain),
      account_id: c.accountId,
    };
  }

  async transparency(sessionId: string): Promise<TransparencyView> {
    const c = this.require(sessionId);
    const t = plain<Record<string, unknown>>(await c.request('/transparency', { auth: false }));
    const assets = await this.assets();
    const mints =
      (t.mints as {
        mint: string;
        vault_balance: number | string;
        outstanding_note_value: number | string;
      }[]) ?? [];
    return {
      slot: String(t.slot ?? ''),
      mints: mints.map((m) => {
        const a = assets.find((x) => x.mint === m.mint);
        const vault = BigInt(m.vault_balance);
        const notes = BigInt(m.outstanding_note_value);
        const f = (v: bigint) => (a ? formatUnits(v, a.decimals) : v.toString());
        return {
          asset: a?.symbol ?? m.mint,
          mint: m.mint,
          vault_balance: f(vault),
          outstanding_note_value: f(notes),
          vault_balance_units: vault.toString(),
          outstanding_note_value_units: notes.toString(),
          solvent: vault >= notes,
        };
      }),
      orders: (t.orders as Record<string, number>) ?? {},
      settlement: (t.settlement as Record<string, number>) ?? {},
      engine: (t.engine as Record<string, unknown>) ?? {},
    };
  }

  async metrics(sessionId: string): Promise<MetricsView> {
    const c = this.require(sessionId);
    const m = plain<Record<string, unknown>>(await c.request('/admin/metrics/settlement'));
    const latency = (m.stage_latency ?? {}) as Record<
      string,
      { count: number; p50_ms: number; p90_ms: number; p99_ms: number }
    >;
    return {
      stages: Object.entries(latency).map(([stage, q]) => ({
        stage,
        count: q.count,
        p50_ms: q.p50_ms,
        p90_ms: q.p90_ms,
        p99_ms: q.p99_ms,
      })),
      queue_depth: (m.queue_depth ?? {}) as Record<string, number>,
      counters: (m.counters ?? {}) as Record<string, number>,
      raw: m,
    };
  }

  async drain(sessionId: string, action: 'status' | 'begin' | 'cancel'): Promise<DrainView> {
    const c = this.require(sessionId);
    const method = action === 'status' ? 'GET' : action === 'begin' ? 'POST' : 'DELETE';
    return drainView(plain<DrainView>(await c.request('/admin/drain', { method })));
  }

  /** The accounts this app created or changed (the venue has no list route). */
  accountList(sessionId: string): AccountView[] {
    this.require(sessionId);
    return [...this.accounts.values()];
  }

  async createAccount(sessionId: string, req: CreateAccountRequest): Promise<CreatedAccountView> {
    const c = this.require(sessionId);
    const created = await c.request<CreatedAccountView>('/admin/accounts', {
      method: 'POST',
      body: { ...(req.label ? { label: req.label } : {}), ...(req.is_admin ? { is_admin: true } : {}) },
    });
    this.remember({
      account_id: created.account_id,
      api_key: created.api_key,
      is_admin: created.is_admin,
      enabled: true,
      ...(req.label === undefined ? {} : { label: req.label }),
    });
    return created;
  }

  async accountAction(
    sessionId: string,
    apiKey: string,
    action: 'disable' | 'enable' | 'revoke-tokens',
  ): Promise<AccountView> {
    const c = this.require(sessionId);
    const state = await c.request<AccountView>(`/admin/accounts/${encodeURIComponent(apiKey)}/${action}`, {
      method: 'POST',
    });
    const label = this.accounts.get(apiKey)?.label;
    const view: AccountView = {
      account_id: state.account_id,
      api_key: state.api_key,
      is_admin: state.is_admin,
      enabled: state.enabled,
      ...(label ? { label } : {}),
    };
    this.remember(view);
    return view;
  }

  private remember(a: AccountView): void {
    this.accounts.set(a.api_key, a);
    this.state.save('accounts.json', [...this.accounts.values()]);
  }

  async close(): Promise<void> {
    for (const id of [...this.bySession.keys()]) await this.logout(id);
  }
}

function drainView(d: DrainView): DrainView {
  return {
    state: d.state,
    ...(d.started_at_ms === undefined ? {} : { started_at_ms: Number(d.started_at_ms) }),
    open_orders: Number(d.open_orders),
    pending_settlements: Number(d.pending_settlements),
    ...(d.in_flight_settlements === undefined
      ? {}
      : { in_flight_settlements: Number(d.in_flight_settlements) }),
    ...(d.safe_to_stop === undefined ? {} : { safe_to_stop: d.safe_to_stop }),
  };
}
