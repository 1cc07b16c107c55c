import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router-dom';
import { StartLink } from '../start-link';
import { buttonClasses, Card } from '../ui';
import { FEATURES, HOW_IT_WORKS } from './content';

function SectionHeading({
  id,
  eyebrow,
  title,
  text,
}: {
  id: string;
  eyebrow: string;
  title: string;
  text: string;
}) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase dark:text-indigo-300">
        {eyebrow}
      </p>
      <h2
        id={id}
        className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white"
      >
        {title}
      </h2>
      <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">{text}</p>
    </div>
  );
}

/** docs/product.md#public-pages: four steps; `/#how-it-works` scrolls here. */
export function HowItWorks() {
  return (
    <section id="how-it-works" aria-labelledby="how-it-works-title" className="py-20">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="how-it-works-title"
          eyebrow="How it works"
          title="From idea to deployed agent in four steps"
          text="No notebooks, no glue code. Answer a few questions and Agentloom writes the project for you."
        />
        <ol className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {HOW_IT_WORKS.map((step, index) => (
            <li key={step.title}>
              <Card className="h-full">
                <div className="flex items-center gap-3">
                  <span className="grid h-10 w-10 place-items-center rounded-full bg-indigo-600 text-sm font-bold text-white">
                    {index + 1}
                  </span>
                  <step.icon
                    aria-hidden="true"
                    className="h-6 w-6 text-indigo-600 dark:text-indigo-400"
                  />
                </div>
                <h3 className="mt-4 text-lg font-semibold text-slate-900 dark:text-white">
                  {step.title}
                </h3>
                <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{step.text}</p>
              </Card>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

export function FeatureHighlights() {
  return (
    <section aria-labelledby="features-title" className="bg-slate-50 py-20 dark:bg-slate-900/50">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="features-title"
          eyebrow="Features"
          title="Everything you need to ship an agent"
          text="Data connectors, models, vector stores, prompts and interfaces: chosen in a wizard, assembled into a project you own."
        />
        <ul className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map((feature) => (
            <li key={feature.title}>
              <Card className="h-full">
                <feature.icon
                  aria-hidden="true"
                  className="h-8 w-8 text-indigo-600 dark:text-indigo-400"
                />
                <h3 className="mt-4 text-lg font-semibold text-slate-900 dark:text-white">
                  {feature.title}
                </h3>
                <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{feature.summary}</p>
              </Card>
            </li>
          ))}
        </ul>
        <div className="mt-10 text-center">
          <Link to="/features" className={buttonClasses('outline', 'lg')}>
            Explore all features
            <ArrowRight aria-hidden="true" className="h-5 w-5" />
          </Link>
        </div>
      </div>
    </section>
  );
}

/**
 * The call-to-action banner; its buttons lead to /login and /features
 * (docs/product.md#public-pages).
 */
export function CtaBanner() {
  return (
    <section aria-labelledby="cta-title" className="py-20">
      <div className="mx-auto max-w-5xl px-4 sm:px-6 lg:px-8">
        <div className="rounded-3xl bg-gradient-to-r from-indigo-700 to-fuchsia-700 px-6 py-14 text-center shadow-xl sm:px-12">
          <h2 id="cta-title" className="text-3xl font-bold tracking-tight text-white sm:text-4xl">
            Ready to build your first AI agent?
          </h2>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-indigo-50">
            Bring your data and an API key. In a few minutes you will have an agent to chat with and
            a project to deploy.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <StartLink variant="inverse">Start Building</StartLink>
            <Link to="/features" className={buttonClasses('outlineInverse', 'lg')}>
              Explore Features
            </Link>
          </div>
        </div>
      </div>
    </section>
  );
}
