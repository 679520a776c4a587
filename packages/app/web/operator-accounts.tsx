/** The operator view's accounts: create one (its secret shown once), enable, disable, revoke tokens. */
import { useState } from 'preact/hooks';
import { api, type ErrorBody } from './api.js';
import { CheckField, DataTable, ErrorBox, Section } from './components.js';
import { shortId, text } from './format.js';
import { KeyValues, obj, type Obj } from './key-values.js';
import { useAction, type Action } from './use-action.js';

function CreateAccountForm({ action, onChange }: { action: Action; onChange: () => void }) {
  const [isAdmin, setIsAdmin] = useState(false);
  const [label, setLabel] = useState('');
  const [created, setCreated] = useState<Obj>();
  const create = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      const body = await api<Obj>('POST', '/operator/accounts', {
        ...(isAdmin ? { is_admin: true } : {}),
        ...(label.trim() ? { label: label.trim() } : {}),
      });
      setCreated(obj(body));
    }, onChange);
  };
  return (
    <>
      <form class="row" onSubmit={create} noValidate>
        <label for="acct-label">
          Label (optional)
          <input id="acct-label" value={label} onInput={(e) => setLabel(e.currentTarget.value)} />
        </label>
        <CheckField id="acct-admin" label="Admin" checked={isAdmin} onChange={setIsAdmin} />
        <button type="submit" disabled={action.busy}>
          Create account
        </button>
      </form>
      {created ? (
        <div class="ok-note" role="status">
          <p>
            <strong>Account created.</strong> The secret and passphrase are shown once: copy them now.
          </p>
          <KeyValues data={created} />
        </div>
      ) : null}
    </>
  );
}

function AccountButtons({
  account: a,
  action,
  onChange,
}: {
  account: Obj;
  action: Action;
  onChange: () => void;
}) {
  const key = String(a.api_key ?? '');
  const id = shortId(String(a.account_id ?? key));
  const act = (what: 'disable' | 'enable' | 'revoke-tokens') =>
    void action.run(() => api('POST', `/operator/accounts/${encodeURIComponent(key)}/${what}`), onChange);
  const [what, verb] =
    a.enabled === false ? (['enable', 'Enable'] as const) : (['disable', 'Disable'] as const);
  const buttons = [
    { what, text: verb, label: `${verb} account ${id}` },
    { what: 'revoke-tokens' as const, text: 'Revoke tokens', label: `Revoke tokens of account ${id}` },
  ];
  return (
    <div class="row-actions">
      {buttons.map((b) => (
        <button
          key={b.what}
          type="button"
          class="secondary"
          disabled={action.busy}
          onClick={() => act(b.what)}
          aria-label={b.label}
        >
          {b.text}
        </button>
      ))}
    </div>
  );
}

export function AccountsPanel({
  rows,
  error,
  onChange,
}: {
  rows?: Obj[];
  error?: ErrorBody;
  onChange: () => void;
}) {
  const action = useAction();
  return (
    <Section title="Accounts" id="op-accounts">
      <ErrorBox error={error} title="Accounts unavailable" />
      <CreateAccountForm action={action} onChange={onChange} />
      <ErrorBox error={action.error} title="Account action failed" />
      {rows ? (
        <DataTable
          caption="Accounts"
          rows={rows}
          rowKey={(a) => String(a.api_key ?? a.account_id)}
          empty="No accounts."
          columns={[
            { label: 'Account', cell: (a) => <code>{text(a.account_id)}</code> },
            {
              label: 'API key',
              cell: (a) => <code title={String(a.api_key)}>{shortId(String(a.api_key ?? ''))}</code>,
            },
            { label: 'Admin', cell: (a) => text(a.is_admin) },
            { label: 'Enabled', cell: (a) => text(a.enabled ?? true) },
            {
              label: 'Actions',
              cell: (a) => <AccountButtons account={a} action={action} onChange={onChange} />,
            },
          ]}
        />
      ) : null}
    </Section>
  );
}
