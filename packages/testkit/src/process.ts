/**
 * Venues in their own processes: the `nightjar` CLI (`startVenueProcess`, `startNightjar`), the app
 * beside it (`startAppProcess`), and the engine alone as a child (`startEngineProcess`). Loads no
 * venue code into the test's process.
 */
export * from './cli-process.js';
export * from './app-process.js';
export * from './engine-process.js';
