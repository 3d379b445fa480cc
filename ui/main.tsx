import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Spinner } from './components/Spinner';
import './theme/global.css';

/**
 * The first script only paints the loading spinner; the router, the messages and the pages come in
 * chunks fetched right after, so the first paint does not wait for them.
 */
const container = document.getElementById('root');
if (!container) throw new Error('no #root element');
const root = createRoot(container);
root.render(<Spinner />);

void import('./app').then(async ({ createPortal }) => {
  const portal = await createPortal();
  root.render(<StrictMode>{portal}</StrictMode>);
});
