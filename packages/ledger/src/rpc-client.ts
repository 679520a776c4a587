/** A LedgerClient over JSON-RPC: the same interface as the in-process ledger. */
import WebSocket from 'ws';
import { RPC_ERRORS, RpcError } from './errors.js';
import type {
  Commitment,
  DevLedgerClient,
  FaultConfig,
  LeafRecord,
  LedgerEvent,
  MarketRecord,
  MemoRecord,
  MintSolvency,
  DepositRecord,
  NoteStatus,
  RootWindowRecord,
  SignatureStatus,
  Transaction,
  TransactionRecord,
  TreeRootRecord,
  VaultInfo,
} from './types.js';

const MIN_RECONNECT_MS = 100;
const MAX_RECONNECT_MS = 5000;

export class RpcLedgerClient implements DevLedgerClient {
  private nextId = 1;
  private socket: WebSocket | undefined;
  private socketReady: Promise<void> | undefined;
  private readonly listeners = new Set<(event: LedgerEvent) => void>();
  private closed = false;
  private interrupted = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectDelayMs = MIN_RECONNECT_MS;

  constructor(
    readonly url: string,
    private readonly options: { timeoutMs?: number } = {},
  ) {}

  private async call<T>(method: string, params: object = {}): Promise<T> {
    if (this.closed) throw new RpcError(RPC_ERRORS.nodeUnavailable, 'client is closed');
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
    } catch (err) {
      throw new RpcError(
        RPC_ERRORS.nodeUnavailable,
        `ledger unreachable: ${err instanceof Error ? err.message : 'network error'}`,
      );
    }
    let body: { result?: T; error?: { code: number; message: string } };
    try {
      body = (await response.json()) as typeof body;
    } catch {
      throw new RpcError(RPC_ERRORS.internal, `ledger answered HTTP ${response.status} without JSON-RPC`);
    }
    if (body.error) throw new RpcError(body.error.code, body.error.message);
    return body.result as T;
  }

  getSlot(params: { commitment?: Commitment } = {}) {
    return this.call<number>('getSlot', params);
  }
  getVault(params: { commitment?: Commitment } = {}) {
    return this.call<VaultInfo>('getVault', params);
  }
  getMarkets() {
    return this.call<MarketRecord[]>('getMarkets');
  }
  getTreeRoot(params: { tree_id: number; commitment?: Commitment }) {
    return this.call<TreeRootRecord>('getTreeRoot', params);
  }
  getLeaves(params: { tree_id: number; from: number; to: number }) {
    return this.call<{ leaves: LeafRecord[] }>('getLeaves', params);
  }
  getRootWindow(params: { tree_id: number; commitment?: Commitment }) {
    return this.call<RootWindowRecord>('getRootWindow', params);
  }
  getBalance(params: { owner: string; mint: string }) {
    return this.call<string>('getBalance', params);
  }
  getNonce(params: { signer: string }) {
    return this.call<string | null>('getNonce', params);
  }
  requestAirdrop(params: { owner: string; mint: string; amount: string }) {
    return this.call<{ signature: string }>('requestAirdrop', params);
  }
  sendTransaction(params: { transaction: Transaction }) {
    return this.call<{ signature: string }>('sendTransaction', params);
  }
  getSignatureStatuses(params: { signatures: string[] }) {
    return this.call<(SignatureStatus | null)[]>('getSignatureStatuses', params);
  }
  getTransaction(params: { signature: string }) {
    return this.call<TransactionRecord | null>('getTransaction', params);
  }
  getNoteStatus(params: { nullifier: string }) {
    return this.call<NoteStatus>('getNoteStatus', params);
  }
  getNoteStatuses(params: { nullifiers: string[] }) {
    return this.call<NoteStatus[]>('getNoteStatuses', params);
  }
  getMemos(params: { from: number; to: number }) {
    return this.call<{ memos: MemoRecord[] }>('getMemos', params);
  }
  getMemosBySignature(params: { signature: string }) {
    return this.call<{ memos: MemoRecord[] }>('getMemosBySignature', params);
  }
  getDeposits(params: { owner: string; from?: number }) {
    return this.call<{ deposits: DepositRecord[] }>('getDeposits', params);
  }

  getSolvency(params: Record<string, never> = {}) {
    return this.call<{ slot: number; mints: MintSolvency[] }>('getSolvency', params);
  }
  advanceSlots(params: { slots: number }) {
    return this.call<number>('dev_advanceSlots', params);
  }
  setFaults(params: Partial<FaultConfig>) {
    return this.call<FaultConfig>('dev_setFaults', params);
  }

  /** Opens the event socket on first use; resolves once it is connected. */
  connectEvents(): Promise<void> {
    if (this.socketReady) return this.socketReady;
    const wsUrl = this.url.replace(/^http/, 'ws').replace(/\/?$/, '/ws');
    const socket = new WebSocket(wsUrl, { maxPayload: 1024 * 1024 });
    this.socket = socket;
    const ready = new Promise<void>((resolve, reject) => {
      socket.once('open', () => {
        this.reconnectDelayMs = MIN_RECONNECT_MS;
        // After an interruption, tell subscribers that events may have been missed.
        if (this.interrupted) {
          this.interrupted = false;
          this.deliver({ type: 'resync' });
        }
        resolve();
      });
      socket.once('error', (err) =>
        reject(new RpcError(RPC_ERRORS.nodeUnavailable, `event socket failed: ${err.message}`)),
      );
    });
    this.socketReady = ready;
    ready.catch(() => undefined);
    socket.on('message', (data) => {
      let event: LedgerEvent;
      try {
        event = JSON.parse(String(data)) as LedgerEvent;
      } catch {
        return;
      }
      this.deliver(event);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (this.socket === socket) {
        this.socket = undefined;
        this.socketReady = undefined;
      }
      if (!this.closed && this.listeners.size > 0) this.scheduleReconnect();
    });
    return ready;
  }

  /** Reconnects the event socket with exponential backoff until it opens or the client closes. */
  private scheduleReconnect(): void {
    if (this.reconnectTimer || this.closed) return;
    this.interrupted = true;
    const delay = this.reconnectDelayMs;
    this.reconnectDelayMs = Math.min(MAX_RECONNECT_MS, this.reconnectDelayMs * 2);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.closed) return;
      void this.connectEvents().catch(() => undefined);
    }, delay);
    this.reconnectTimer.unref?.();
  }

  private deliver(event: LedgerEvent): void {
    for (const l of this.listeners) l(event);
  }

  subscribe(listener: (event: LedgerEvent) => void): () => void {
    this.listeners.add(listener);
    void this.connectEvents().catch(() => undefined);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.socket?.terminate();
  }
}
