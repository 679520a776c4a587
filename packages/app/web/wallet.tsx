/** Balances per asset, deposit (with the dev faucet) and withdraw. */
import { useState } from 'preact/hooks';
import type { BalanceView, DepositRequest, TransferView, WithdrawRequest } from '../src/api-types.js';
import { api, errorOf, type ErrorBody } from './api.js';
import { DataTable, ErrorBox, Section } from './components.js';
import { isPositiveDecimal, newRef } from './format.js';
import type { ProgressStep } from './ticket.js';

export function BalancesPanel({ balances }: { balances: BalanceView[] }) {
  return (
    <Section title="Balances" id="balances">
      <DataTable
        caption="Balances per asset"
        rows={balances}
        rowKey={(b) => b.mint}
        empty="No balance yet: deposit to start."
        columns={[
          { label: 'Asset', cell: (b) => <strong>{b.asset}</strong> },
          { label: 'Available', cell: (b) => b.available, numeric: true },
          { label: 'Locked', cell: (b) => b.locked, numeric: true },
          { label: 'Pending settlement', cell: (b) => b.pending_settlement, numeric: true },
          { label: 'Pending deposit', cell: (b) => b.pending_deposit, numeric: true },
          { label: 'Funding', cell: (b) => b.funding, numeric: true },
        ]}
      />
    </Section>
  );
}

function TransferResult({ t }: { t: TransferView }) {
  return (
    <p class="ok-note" role="status">
      {t.kind === 'deposit' ? 'Deposited' : 'Withdrew'} {t.amount} {t.asset} (<code>{t.amount_units}</code>{' '}
      smallest units): {t.state}
      {t.ledger_signature ? (
        <>
          , ledger signature <code class="break">{t.ledger_signature}</code>
        </>
      ) : null}
    </p>
  );
}

function TransferForm({
  kind,
  assets,
  dev,
  progress,
  onDone,
}: {
  kind: 'deposit' | 'withdrawal';
  assets: string[];
  dev: boolean;
  progress: Record<string, ProgressStep[]>;
  onDone: () => void;
}) {
  const [ref, setRef] = useState<string>();
  const [asset, setAsset] = useState('');
  const [amount, setAmount] = useState('');
  const [recipient, setRecipient] = useState('');
  // A withdrawal to a funding address: the server's warning, shown until the user confirms or edits.
  const [linkWarning, setLinkWarning] = useState<string>();
  const [faucetChoice, setFaucet] = useState<boolean>();
  const faucet = faucetChoice ?? dev;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorBody>();
  const [result, setResult] = useState<TransferView>();
  const chosen = asset || assets[0] || '';
  const p = kind === 'deposit' ? 'dep' : 'wd';
  const verb = kind === 'deposit' ? 'Deposit' : 'Withdraw';

  const send = async (confirmFundingLink: boolean) => {
    setResult(undefined);
    if (!isPositiveDecimal(amount)) {
      setError({
        code: 'BAD_AMOUNT',
        message: `The amount "${amount}" is not a positive number.`,
        fix: `Enter the amount in ${chosen || 'the asset'}'s own units, e.g. 1.5.`,
      });
      return;
    }
    if (kind === 'withdrawal' && recipient.trim() === '') {
      setError({
        code: 'BAD_RECIPIENT',
        message: 'Enter the ledger address to withdraw to.',
        fix: 'Use a fresh address of yours: your funding address would link this withdrawal to your deposits.',
      });
      return;
    }
    setError(undefined);
    setLinkWarning(undefined);
    setBusy(true);
    const clientRef = newRef();
    setRef(clientRef);
    try {
      const t =
        kind === 'deposit'
          ? await api<TransferView>('POST', '/deposits', {
              asset: chosen,
              amount: amount.trim(),
              ...(dev && faucet ? { faucet: true } : {}),
              client_ref: clientRef,
            } satisfies DepositRequest)
          : await api<TransferView>('POST', '/withdrawals', {
              asset: chosen,
              amount: amount.trim(),
              recipient: recipient.trim(),
              ...(confirmFundingLink ? { confirm_funding_link: true } : {}),
              client_ref: clientRef,
            } satisfies WithdrawRequest);
      setResult(t);
      onDone();
    } catch (err) {
      const body = errorOf(err);
      // Not an error to fix but a choice to make: say what it links and ask.
      if (body.code === 'LINKS_FUNDING_ADDRESS') setLinkWarning(body.message);
      else setError(body);
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: Event) => {
    e.preventDefault();
    void send(false);
  };

  return (
    <form onSubmit={submit} class="stack" aria-labelledby={`${p}-h`} noValidate>
      <h3 id={`${p}-h`}>{kind === 'deposit' ? 'Deposit' : 'Withdraw'}</h3>
      <div class="row">
        <label for={`${p}-asset`}>
          {verb} asset
          <select id={`${p}-asset`} value={chosen} onChange={(e) => setAsset(e.currentTarget.value)}>
            {assets.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <label for={`${p}-amount`}>
          {verb} amount ({chosen})
          <input
            id={`${p}-amount`}
            inputMode="decimal"
            autocomplete="off"
            value={amount}
            onInput={(e) => setAmount(e.currentTarget.value)}
            placeholder="e.g. 10"
          />
        </label>
      </div>
      {kind === 'deposit' ? (
        <p class="muted" data-testid="dep-round-hint">
          Round amounts (100, not 137.42) help: deposits are public, and an odd one is easy to trace on.
        </p>
      ) : null}
      {kind === 'withdrawal' ? (
        <label for="wd-recipient">
          Withdraw to (ledger address)
          <input
            id="wd-recipient"
            autocomplete="off"
            spellcheck={false}
            value={recipient}
            onInput={(e) => {
              setRecipient(e.currentTarget.value);
              setLinkWarning(undefined);
            }}
            placeholder="a fresh address of yours"
          />
        </label>
      ) : null}
      {kind === 'deposit' && dev ? (
        <label class="check" for="dep-faucet">
          <input
            id="dep-faucet"
            type="checkbox"
            checked={faucet}
            onChange={(e) => setFaucet(e.currentTarget.checked)}
          />
          From the dev faucet
        </label>
      ) : null}
      <button type="submit" disabled={busy}>
        {busy
          ? kind === 'deposit'
            ? 'Depositing…'
            : 'Withdrawing…'
          : kind === 'deposit'
            ? 'Deposit'
            : 'Withdraw'}
      </button>
      {busy && ref ? (
        <p class="muted" aria-live="polite" data-testid={`${p}-progress`}>
          {(progress[ref] ?? []).map((st) => st.stage).join(' → ') || 'Sending…'}
        </p>
      ) : null}
      {linkWarning ? (
        <div class="warning" role="alert" data-testid="wd-link-warning">
          <p>
            <strong>This links your withdrawal to your deposits.</strong> {linkWarning}
          </p>
          <div class="row">
            <button type="button" disabled={busy} onClick={() => void send(true)}>
              Withdraw to my funding address anyway
            </button>
            <button type="button" class="secondary" onClick={() => setLinkWarning(undefined)}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
      <ErrorBox error={error} title={kind === 'deposit' ? 'Deposit failed' : 'Withdrawal failed'} />
      {result ? <TransferResult t={result} /> : null}
    </form>
  );
}

export function TransfersPanel({
  assets,
  dev,
  progress,
  onDone,
}: {
  assets: string[];
  dev: boolean;
  progress: Record<string, ProgressStep[]>;
  onDone: () => void;
}) {
  return (
    <Section title="Deposit and withdraw" id="transfers">
      <div class="split">
        <TransferForm kind="deposit" assets={assets} dev={dev} progress={progress} onDone={onDone} />
        <TransferForm kind="withdrawal" assets={assets} dev={dev} progress={progress} onDone={onDone} />
      </div>
    </Section>
  );
}
