import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { followAddress } from './lib/route';
import './styles/app.css';
import './styles/lists.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// The opened address decides the first screen (/projects/1006 opens that project).
followAddress();
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
