import { Check } from 'lucide-react';
import { Link } from 'react-router-dom';
import { FEATURES } from '../components/landing/content';
import { buttonClasses, Card, PageContainer, PageHeader } from '../components/ui';
import { IconHeading } from '../components/icon-heading';
import { StartLink } from '../components/start-link';

/** Six feature cards (docs/product.md#public-pages). */
export function FeaturesPage() {
  return (
    <PageContainer size="xl">
      <PageHeader
        title="Features"
        description="Agentloom packs the whole agent-building workflow into one guided tool: connect data, choose models, test live and ship a project you own."
      />
      <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
        {FEATURES.map((feature) => (
          <li key={feature.title}>
            <Card as="article" className="flex h-full flex-col">
              <IconHeading icon={feature.icon} title={feature.title} text={feature.summary} />
              <ul className="mt-4 space-y-2 text-sm text-slate-700 dark:text-slate-200">
                {feature.details.map((detail) => (
                  <li key={detail} className="flex gap-2">
                    <Check
                      aria-hidden="true"
                      className="mt-0.5 h-4 w-4 shrink-0 text-green-700 dark:text-green-400"
                    />
                    {detail}
                  </li>
                ))}
              </ul>
            </Card>
          </li>
        ))}
      </ul>
      <div className="mt-12 flex flex-wrap justify-center gap-3">
        <StartLink>Start Building</StartLink>
        <Link to="/docs" className={buttonClasses('outline', 'lg')}>
          Read the Docs
        </Link>
      </div>
    </PageContainer>
  );
}
