import { ledgerSuite } from './suite.js';

ledgerSuite('in-process calls');
