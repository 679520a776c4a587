/** @nightjar/app: the trading app's server (`createAppServer`) and its local API's wire types. */
export type * from './api-types.js';
export { createAppServer, DEFAULT_APP_PORT, type AppServer, type CreateAppServerOptions } from './server.js';
export type { VenueConfig } from './venue.js';
export { openApiDocument } from './api/openapi.js';
export { APP_ROUTES, type AppRouteId } from './api/routes.js';
