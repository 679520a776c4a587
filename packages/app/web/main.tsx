/** Entry point of the web bundle (built by `src/web/index.ts`). */
import { render } from 'preact';
import './app.css';
import { App } from './app.js';

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
