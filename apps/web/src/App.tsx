import { lazy, Suspense, type ComponentType } from 'react';
import { Route, Routes } from 'react-router-dom';
import { RequireAuth } from './auth/require-auth';
import { AppLayout } from './layout/app-layout';

/** Route-level code splitting: each screen is its own chunk, loaded when first visited. */
function page<T extends Record<string, unknown>>(
  load: () => Promise<T>,
  name: keyof T,
): ComponentType<Record<string, unknown>> {
  return lazy(async () => ({
    default: (await load())[name] as ComponentType<Record<string, unknown>>,
  }));
}

const LandingPage = page(() => import('./pages/landing-page'), 'LandingPage');
const FeaturesPage = page(() => import('./pages/features-page'), 'FeaturesPage');
const DocsPage = page(() => import('./pages/docs-page'), 'DocsPage');
const DevelopersPage = page(() => import('./pages/developers-page'), 'DevelopersPage');
const PrivacyPolicyPage = page(() => import('./pages/privacy-policy-page'), 'PrivacyPolicyPage');
const LoginPage = page(() => import('./pages/login-page'), 'LoginPage');
const SignupPage = page(() => import('./pages/signup-page'), 'SignupPage');
const ForgotPasswordPage = page(() => import('./pages/forgot-password-page'), 'ForgotPasswordPage');
const ResetPasswordPage = page(() => import('./pages/reset-password-page'), 'ResetPasswordPage');
const DashboardPage = page(() => import('./pages/dashboard/dashboard-page'), 'DashboardPage');
const CreateAgentPage = page(
  () => import('./pages/dashboard/create-agent-page'),
  'CreateAgentPage',
);
const WizardPage = page(() => import('./features/wizard/wizard-page'), 'WizardPage');
const BuildPage = page(() => import('./features/build/build-page'), 'BuildPage');
const ImageAgentPage = page(() => import('./features/image/image-agent-page'), 'ImageAgentPage');
const NotFoundPage = page(() => import('./pages/not-found-page'), 'NotFoundPage');

function Protected({ children }: { children: React.ReactNode }) {
  return <RequireAuth>{children}</RequireAuth>;
}

/** The routes of docs/product.md#routes-and-access. */
export function App() {
  return (
    <Suspense
      fallback={
        <div role="status" aria-live="polite" className="sr-only">
          Loading…
        </div>
      }
    >
      <Routes>
        <Route element={<AppLayout />}>
          <Route path="/" element={<LandingPage />} />
          <Route path="/login" element={<LoginPage />} />
          <Route path="/signup" element={<SignupPage />} />
          <Route path="/forgot-password" element={<ForgotPasswordPage />} />
          <Route path="/reset-password" element={<ResetPasswordPage />} />
          <Route path="/features" element={<FeaturesPage />} />
          <Route path="/docs" element={<DocsPage />} />
          <Route path="/developers" element={<DevelopersPage />} />
          <Route path="/privacy-policy" element={<PrivacyPolicyPage />} />
          <Route
            path="/dashboard"
            element={
              <Protected>
                <DashboardPage />
              </Protected>
            }
          />
          <Route
            path="/dashboard/create-agent"
            element={
              <Protected>
                <CreateAgentPage />
              </Protected>
            }
          />
          {/* /pipeline/{type} starts a new agent; once step 1 has made it, the address
              carries the agent and the step: /pipeline/{type}/{sessionId}?step=N. */}
          <Route
            path="/pipeline/:type/:sessionId?"
            element={
              <Protected>
                <WizardPage />
              </Protected>
            }
          />
          <Route
            path="/build/image"
            element={
              <Protected>
                <ImageAgentPage />
              </Protected>
            }
          />
          {/* The session id is optional: without it the build screen reads the one the wizard
              left in local storage, or says it is missing. /build/image still wins over
              /build/:type: React Router ranks a static segment above a parameter. */}
          <Route
            path="/build/:type/:sessionId?"
            element={
              <Protected>
                <BuildPage flavor="rag" />
              </Protected>
            }
          />
          <Route
            path="/sql/build/animation/:type/:sessionId?"
            element={
              <Protected>
                <BuildPage flavor="sql" />
              </Protected>
            }
          />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </Suspense>
  );
}
