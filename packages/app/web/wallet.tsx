/** Balances per asset, deposit (with the dev faucet) and withdraw. */
import { useState } from 'preact/hooks';
import type { BalanceView, DepositRequest, TransferView, WithdrawRequest } from '../src/api-types.js';
import { api, errorOf, type ErrorBody } from './api.js';
import { CheckField, DataTable, ErrorBox, Section, TextField } from './components.js';
import { isPositiveDecimal, newRef } from './format.js';
import type { ProgressStep } from './ticket.js';

/** Usable is what can back an order now; arriving is a deposit or trade output the engine's tree lacks yet. */
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
          { label: 'Usable', cell: (b) => b.usable, numeric: true },
          { label: 'Arriving', cell: (b) => b.arriving, numeric: true },
          { label: 'Locked', cell: (b) => b.locked, numeric: true },
          { label: 'Settling', cell: (b) => b.pending_settlement, numeric: true },
          { label: 'Funding', cell: (b) => b.funding, numeric: true },
        ]}
      />
      <p class="muted small" data-testid="balances-note">
        Usable: can back an order now. Arriving: a deposit or trade output the venue cannot take yet (about 13
        s after it lands on the ledger). Funding: your public ledger account, deposited from.
      </p>
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

type TransferKind = 'deposit' | 'withdrawal';

/** What the page sees wrong with a transfer before asking the app, with its fix. */
function transferProblem(
  kind: TransferKind,
  asset: string,
  amount: string,
  recipient: string,
): ErrorBody | undefined {
  if (!isPositiveDecimal(amount))
    return {
      code: 'BAD_AMOUNT',
      message: `The amount "${amount}" is not a positive number.`,
      fix: `Enter the amount in ${asset || 'the asset'}'s own units, e.g. 1.5.`,
    };
  if (kind === 'withdrawal' && recipient.trim() === '')
    return {
      code: 'BAD_RECIPIENT',
      message: 'Enter the ledger address to withdraw to.',
      fix: 'Use a fresh address of yours: your funding address would link this withdrawal to your deposits.',
    };
  return undefined;
}

interface TransferAsk {
  asset: string;
  amount: string;
  recipient: string;
  faucet: boolean;
  confirmFundingLink: boolean;
  clientRef: string;
}

function postTransfer(kind: TransferKind, t: TransferAsk): Promise<TransferView> {
  return kind === 'deposit'
    ? api<TransferView>('POST', '/deposits', {
        asset: t.asset,
        amount: t.amount.trim(),
        ...(t.faucet ? { faucet: true } : {}),
        client_ref: t.clientRef,
      } satisfies DepositRequest)
    : api<TransferView>('POST', '/withdrawals', {
        asset: t.asset,
        amount: t.amount.trim(),
        recipient: t.recipient.trim(),
        ...(t.confirmFundingLink ? { confirm_funding_link: true } : {}),
        client_ref: t.clientRef,
      } satisfies WithdrawRequest);
}

/** A deposit's hint on amounts, and in dev mode the faucet choice. */
function DepositNotes({
  dev,
  faucet,
  onFaucet,
}: {
  dev: boolean;
  faucet: boolean;
  onFaucet: (on: boolean) => void;
}) {
  return (
    <>
      <p class="muted" data-testid="dep-round-hint">
        Round amounts (100, not 137.42) help: deposits are public, and an odd one is easy to trace on.
      </p>
      {dev ? (
        <CheckField id="dep-faucet" label="From the dev faucet" checked={faucet} onChange={onFaucet} />
      ) : null}
    </>
  );
}

/** The submit button, and the progress of the transfer while it is sent. */
function TransferSubmit({
  deposit,
  busy,
  testId,
  steps,
}: {
  deposit: boolean;
  busy: boolean;
  testId: string;
  steps: ProgressStep[] | undefined;
}) {
  return (
    <>
      <button type="submit" disabled={busy}>
        {busy ? (deposit ? 'Depositing…' : 'Withdrawing…') : deposit ? 'Deposit' : 'Withdraw'}
      </button>
      {busy && steps ? (
        <p class="muted" aria-live="polite" data-testid={testId}>
          {steps.map((st) => st.stage).join(' → ') || 'Sending…'}
        </p>
      ) : null}
    </>
  );
}

/** A withdrawal to the funding address: the app's warning, and the choice to go on or not. */
function LinkWarning({
  message,
  busy,
  onConfirm,
  onCancel,
}: {
  message: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <div class="warning" role="alert" data-testid="wd-link-warning">
      <p>
        <strong>This links your withdrawal to your deposits.</strong> {message}
      </p>
      <div class="row">
        <button type="button" disabled={busy} onClick={onConfirm}>
          Withdraw to my funding address anyway
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/** The asset and amount of a transfer. */
function AssetAmount({
  p,
  verb,
  assets,
  chosen,
  amount,
  onAsset,
  onAmount,
}: {
  p: string;
  verb: string;
  assets: string[];
  chosen: string;
  amount: string;
  onAsset: (asset: string) => void;
  onAmount: (amount: string) => void;
}) {
  return (
    <div class="row">
      <label for={`${p}-asset`}>
        {verb} asset
        <select id={`${p}-asset`} value={chosen} onChange={(e) => onAsset(e.currentTarget.value)}>
          {assets.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </label>
      <TextField
        id={`${p}-amount`}
        label={`${verb} amount (${chosen})`}
        inputMode="decimal"
        autocomplete="off"
        value={amount}
        onInput={onAmount}
        placeholder="e.g. 10"
      />
    </div>
  );
}

/** Sending a transfer: busy, its progress ref, its result, its error or the funding-link warning. */
function useTransferSend(kind: TransferKind, onDone: () => void) {
  const [ref, setRef] = useState<string>();
  // A withdrawal to a funding address: the server's warning, shown until the user confirms or edits.
  const [linkWarning, setLinkWarning] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorBody>();
  const [result, setResult] = useState<TransferView>();
  const send = async (ask: Omit<TransferAsk, 'clientRef'>) => {
    setResult(undefined);
    const problem = transferProblem(kind, ask.asset, ask.amount, ask.recipient);
    setError(problem);
    if (problem) return;
    setLinkWarning(undefined);
    setBusy(true);
    const clientRef = newRef();
    setRef(clientRef);
    try {
      setResult(await postTransfer(kind, { ...ask, clientRef }));
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
  return { ref, linkWarning, setLinkWarning, busy, error, result, send };
}

function TransferForm({
  kind,
  assets,
  dev,
  progress,
  onDone,
}: {
  kind: TransferKind;
  assets: string[];
  dev: boolean;
  progress: Record<string, ProgressStep[]>;
  onDone: () => void;
}) {
  const [asset, setAsset] = useState('');
  const [amount, setAmount] = useState('');
  const [recipient, setRecipient] = useState('');
  const [faucetChoice, setFaucet] = useState<boolean>();
  const faucet = faucetChoice ?? dev;
  const { ref, linkWarning, setLinkWarning, busy, error, result, send } = useTransferSend(kind, onDone);
  const chosen = asset || assets[0] || '';
  const p = kind === 'deposit' ? 'dep' : 'wd';
  const deposit = kind === 'deposit';
  const sendNow = (confirmFundingLink: boolean) =>
    void send({ asset: chosen, amount, recipient, faucet: dev && faucet, confirmFundingLink });

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        sendNow(false);
      }}
      class="stack"
      aria-labelledby={`${p}-h`}
      noValidate
    >
      <h3 id={`${p}-h`}>{deposit ? 'Deposit' : 'Withdraw'}</h3>
      <AssetAmount
        p={p}
        verb={deposit ? 'Deposit' : 'Withdraw'}
        assets={assets}
        chosen={chosen}
        amount={amount}
        onAsset={setAsset}
        onAmount={setAmount}
      />
      {deposit ? (
        <DepositNotes dev={dev} faucet={faucet} onFaucet={setFaucet} />
      ) : (
        <TextField
          id="wd-recipient"
          label="Withdraw to (ledger address)"
          autocomplete="off"
          spellcheck={false}
          value={recipient}
          onInput={(v) => {
            setRecipient(v);
            setLinkWarning(undefined);
          }}
          placeholder="a fresh address of yours"
        />
      )}
      <TransferSubmit
        deposit={deposit}
        busy={busy}
        testId={`${p}-progress`}
        steps={ref ? (progress[ref] ?? []) : undefined}
      />
      {linkWarning ? (
        <LinkWarning
          message={linkWarning}
          busy={busy}
          onConfirm={() => sendNow(true)}
          onCancel={() => setLinkWarning(undefined)}
        />
      ) : null}
      <ErrorBox error={error} title={deposit ? 'Deposit failed' : 'Withdrawal failed'} />
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
