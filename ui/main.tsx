import { createRoot } from 'react-dom/client';
import { Spinner } from './components/Spinner';
import './theme/global.css';

/**
 * A prerendered page (data-prerendered) is already on screen: the app hydrates it when it arrives.
 * Any other route paints the loading spinner first; the router, the messages and the pages come in
 * chunks fetched right after (and preloaded by the page's head), so the first paint does not wait.
 */
const container = document.getElementById('root');
if (!container) throw new Error('no #root element');
const prerendered = container.dataset.prerendered;
const root = prerendered ? undefined : createRoot(container);
root?.render(<Spinner />);

void import('./app').then(({ startPortal }) => startPortal(container, root, prerendered));
