/** The operator view's login: an admin's API key, secret and passphrase, or the dev admin. */
import { useState } from 'preact/hooks';
import type { OperatorLoginRequest } from '../src/api-types.js';
import { api } from './api.js';
import { ErrorBox, Section, TextField } from './components.js';
import { useAction } from './use-action.js';

export function LoginForm({ dev, onLoggedIn }: { dev: boolean; onLoggedIn: () => void }) {
  const [apiKey, setApiKey] = useState('');
  const [secret, setSecret] = useState('');
  const [pass, setPass] = useState('');
  const { busy, error, setError, run } = useAction();
  const login = (body: OperatorLoginRequest) => run(() => api('POST', '/operator/login', body), onLoggedIn);
  const submit = (e: Event) => {
    e.preventDefault();
    if (!apiKey.trim() || !secret || !pass) {
      setError({
        code: 'CREDENTIALS_MISSING',
        message: 'The API key, secret and passphrase are all needed.',
        fix: dev
          ? 'Fill in all three, or use the dev admin.'
          : 'Fill in all three (from `nightjar account create --admin`).',
      });
      return;
    }
    void login({ api_key: apiKey.trim(), api_secret: secret, passphrase: pass });
  };
  return (
    <Section title="Operator login" id="op-login">
      <form class="stack narrow" onSubmit={submit} noValidate>
        <TextField id="op-key" label="API key" autocomplete="username" value={apiKey} onInput={setApiKey} />
        <TextField
          id="op-secret"
          label="API secret"
          secret
          autocomplete="current-password"
          value={secret}
          onInput={setSecret}
        />
        <TextField id="op-pass" label="Passphrase" secret autocomplete="off" value={pass} onInput={setPass} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            Log in
          </button>
          {dev ? (
            <button type="button" class="secondary" disabled={busy} onClick={() => void login({ dev: true })}>
              Use the dev admin
            </button>
          ) : null}
        </div>
        <ErrorBox error={error} title="Login failed" />
      </form>
    </Section>
  );
}
