import { useNavigate } from 'react-router-dom';
import { useAuth } from '../auth/auth-context';
import { Hero } from '../components/landing/hero';
import { CtaBanner, FeatureHighlights, HowItWorks } from '../components/landing/sections';

/**
 * The landing page (docs/product.md#public-pages): hero, how it works, features, call to action.
 */
export function LandingPage() {
  const { user } = useAuth();
  const navigate = useNavigate();
  return (
    <>
      <Hero onGetStarted={() => void navigate(user ? '/dashboard' : '/signup')} />
      <HowItWorks />
      <FeatureHighlights />
      <CtaBanner />
    </>
  );
}
