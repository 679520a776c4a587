/** Every command, in the order `nightjar --help` lists them. */
import type { Command } from '../command.js';
import { accountCreate, accountDisable, accountEnable, accountRevokeTokens } from './account.js';
import { app } from './app.js';
import { authorityKey } from './authority.js';
import { bench } from './bench.js';
import { demoTraders } from './demo-traders.js';
import { login } from './login.js';
import { orderList, orderModify, orderPlace, orderStatus } from './order.js';
import { orderCancel } from './order-cancel.js';
import { prover } from './prover.js';
import { ledger, start } from './services.js';
import { status } from './status.js';
import { watch } from './watch.js';
import { walletBalances, walletDeposit, walletInit, walletNotes, walletRecover } from './wallet.js';
import { walletMerge, walletSplit } from './wallet-join-split.js';
import { walletWithdraw } from './wallet-withdraw.js';

export const COMMANDS: Command[] = [
  start,
  app,
  ledger,
  prover,
  authorityKey,
  login,
  accountCreate,
  accountDisable,
  accountEnable,
  accountRevokeTokens,
  walletInit,
  walletDeposit,
  walletBalances,
  walletNotes,
  walletSplit,
  walletMerge,
  walletWithdraw,
  walletRecover,
  orderPlace,
  orderCancel,
  orderModify,
  orderStatus,
  orderList,
  watch,
  status,
  bench,
  demoTraders,
];
