import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { Toaster } from 'sonner';
import { App } from './App';
import { AuthProvider } from './auth/auth-context';
import { ApiError } from './lib/api';
import './index.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refusal (401 ended session, 404 gone) answers the same the second time; only a failure
      // that may pass (network, 5xx) is tried once more.
      retry: (count, error) =>
        count < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      refetchOnWindowFocus: false,
    },
  },
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AuthProvider>
          <App />
          {/* Below the sticky navigation bar (4rem high), never on top of it: sonner places
              toasts on narrow screens (under 600 px) by mobileOffset, not offset. */}
          <Toaster
            position="top-right"
            offset={{ top: '5rem' }}
            mobileOffset={{ top: '5rem' }}
            richColors
            closeButton
          />
        </AuthProvider>
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
