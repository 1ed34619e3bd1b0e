import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@xyflow/react/dist/base.css';
import './styles/theme.css';
import './styles/app.css';
import './styles/graph.css';
import './styles/inspector.css';
import './styles/context.css';
import { App } from './shell/App';
import { AppProvider, type AppServices } from './app-context';
import { getApi } from './lib/api';
import { bindHashRoute } from './lib/hash-route';
import { createActions, createCanopyStore } from './store';

const store = createCanopyStore();
// Reading the api first also takes the serve token out of the address bar.
const api = getApi((status) => {
  store.getState().setStreamState(status.state);
  if (status.state === 'refused')
    store.getState().setFatalError({ code: 'forbidden', message: 'The server refused the access token.' });
});
const actions = createActions(api, store);
const services: AppServices = { api, store, actions };

void actions.init();
// A deep link opens its session in parallel with the first listing.
bindHashRoute(store, actions);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProvider services={services}>
      <App />
    </AppProvider>
  </StrictMode>,
);
