/** The frames of the WebSocket `/api/v1/events` (after the session is checked on upgrade). */
import { constant, list, object, oneOf, optional, required, str, union } from './doc-codecs.js';
import { balanceView, fillView, orderView, venueView } from './views.js';

export const appEvent = union('A frame of the WebSocket /api/v1/events.', [
  object({ type: required(constant('venue')), venue: required(venueView) }),
  object({ type: required(constant('order')), order: required(orderView) }),
  object({ type: required(constant('fill')), fill: required(fillView) }),
  object({ type: required(constant('balances')), balances: required(list(balanceView)) }),
  object({
    type: required(constant('progress')),
    client_ref: optional(str()),
    action: required(str()),
    stage: required(str()),
    detail: optional(str()),
  }),
  object({
    type: required(constant('connection')),
    state: required(oneOf(['connected', 'disconnected', 'reconnected'])),
  }),
]);
