import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { onSessionEnded } from './api/client.ts';
import { isApiError } from './api/errors.ts';
import { sessionQuery } from './api/session.ts';
import { createPortalRouter } from './router.tsx';
import { StatusProvider } from './ui/status.tsx';
import './styles/base.css';
import './styles/shell.css';
import './styles/ui.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // a refusal is an answer, not a glitch: only unreachable platforms and 5xx are tried again
      retry: (failures, error) => failures < 2 && (!isApiError(error) || error.status === 0 || error.status >= 500),
      refetchOnWindowFocus: false,
    },
  },
});
const router = createPortalRouter(queryClient);

// a call that finds the session gone: back to the sign-in, then to this page
onSessionEnded(() => {
  queryClient.setQueryData(sessionQuery.queryKey, null);
  void router.invalidate();
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <StatusProvider>
        <RouterProvider router={router} />
      </StatusProvider>
    </QueryClientProvider>
  </StrictMode>,
);
