/**
 * The app itself: the router, the providers and the first render. Loaded by `main.tsx` after it
 * started what the page needs, and named in index.html to load alongside it.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { NotificationProvider } from './Notifications';
import { routes } from './routes';
import { SessionProvider } from './session';
import { SnackbarProvider } from './Snackbar';
import { loginAddress } from '../lib/api';

const router = createBrowserRouter(routes);
const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

/** A session that cannot be refreshed ends on the login page, which returns here afterwards. */
const onSessionLost = () => {
  const { pathname, search, hash } = router.state.location;
  void router.navigate(loginAddress(`${pathname}${search}${hash}`), { replace: true });
};

createRoot(root).render(
  <StrictMode>
    <SessionProvider onLost={onSessionLost}>
      <SnackbarProvider>
        <NotificationProvider>
          <RouterProvider router={router} />
        </NotificationProvider>
      </SnackbarProvider>
    </SessionProvider>
  </StrictMode>,
);
