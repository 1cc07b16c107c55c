import { clsx } from 'clsx';
import { ArrowLeft, Check, ChevronLeft } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import {
  Badge,
  Button,
  buttonClasses,
  Card,
  PageContainer,
  ProgressBar,
} from '../../components/ui';
import { stepPercent } from './step-navigation';

/**
 * The frame both wizards share: title, Back (browser history), the 'Step N of M' badge, the
 * progress bar, the list of steps, the current step's card and Previous.
 */
export function WizardLayout({
  title,
  description,
  labels,
  step,
  busy,
  onPrevious,
  stepHref,
  summaryHref,
  children,
}: {
  title: string;
  description: string;
  /** Every step's label, the last one included. */
  labels: readonly string[];
  step: number;
  busy: boolean;
  onPrevious: () => void;
  /** The link of a step of the list (1-based), or undefined where it is not clickable. */
  stepHref?: (position: number) => string | undefined;
  /** Set when the step was opened from the summary: the way back without saving. */
  summaryHref?: string;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const total = labels.length;
  const percent = stepPercent(step, total);
  const label = labels[step - 1] ?? '';
  const heading = useStepFocus(step);

  function goBack() {
    // React Router numbers its history entries; on the first one "back" would leave the app.
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) void navigate(-1);
    else void navigate('/dashboard/create-agent');
  }

  return (
    <PageContainer size="md" className="py-8 lg:py-10">
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        {/* Leaving mid-call would drop the call's outcome (an error toast, say) on the floor. */}
        <Button variant="ghost" size="sm" onClick={goBack} disabled={busy}>
          <ArrowLeft aria-hidden="true" className="h-4 w-4" />
          Back
        </Button>
        <Badge tone="indigo">{`Step ${step} of ${total}`}</Badge>
      </div>

      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl dark:text-white">
        {title}
      </h1>
      <p className="mt-1 text-sm text-slate-600 sm:text-base dark:text-slate-300">{description}</p>

      <ProgressBar
        label="Wizard progress"
        percent={percent}
        valueText={`Step ${step} of ${total}: ${label}`}
        className="mt-5 h-2 w-full"
        fillClassName="bg-indigo-600 duration-300 dark:bg-indigo-400"
      />
      <StepList labels={labels} step={step} stepHref={stepHref} />

      <Card as="section" className="mt-6 p-5 sm:p-8">
        <h2
          id="wizard-step-heading"
          ref={heading}
          tabIndex={-1}
          className="text-xl font-semibold text-slate-900 focus:outline-none dark:text-white"
        >
          {label}
        </h2>
        <div className="mt-5">{children}</div>
      </Card>

      <div className="mt-6 flex flex-wrap justify-between gap-3">
        <Button variant="outline" onClick={onPrevious} disabled={step === 1 || busy}>
          <ChevronLeft aria-hidden="true" className="h-4 w-4" />
          Previous
        </Button>
        {summaryHref && (
          <Link to={summaryHref} className={buttonClasses('ghost')}>
            Back to summary without changing
          </Link>
        )}
      </div>
    </PageContainer>
  );
}

/**
 * A new step replaces the card's content; keyboard and screen-reader users continue from its
 * heading (the returned ref) instead of from a button that no longer exists.
 */
function useStepFocus(step: number) {
  const heading = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);

  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    heading.current?.focus({ preventScroll: true });
    // The new step starts at the top: badge, progress bar, then the step's own heading.
    if (window.scrollY > 0) {
      const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      window.scrollTo({ top: 0, behavior: reduce ? 'auto' : 'smooth' });
    }
  }, [step]);
  return heading;
}

/**
 * Every step with its state: done (ticked), current, or still to do. Steps already answered are
 * links (`stepHref`), so one setting is changed without walking the steps before it.
 */
function StepList({
  labels,
  step,
  stepHref,
}: {
  labels: readonly string[];
  step: number;
  stepHref?: (position: number) => string | undefined;
}) {
  return (
    <ol aria-label="Steps" className="mt-4 flex flex-wrap gap-x-4 gap-y-2 text-xs">
      {labels.map((name, index) => {
        const position = index + 1;
        const href = stepHref?.(position);
        const state = position === step ? 'current' : href || position < step ? 'done' : 'todo';
        const content = (
          <>
            <span
              aria-hidden="true"
              className={clsx(
                'flex h-5 w-5 shrink-0 items-center justify-center rounded-full text-[0.65rem] font-bold',
                state === 'done'
                  ? 'bg-indigo-600 text-white dark:bg-indigo-400 dark:text-slate-950'
                  : state === 'current'
                    ? 'border-2 border-indigo-600 dark:border-indigo-300'
                    : 'border border-slate-400 dark:border-slate-600',
              )}
            >
              {state === 'done' ? <Check className="h-3 w-3" /> : position}
            </span>
            {name}
            {state === 'done' && <span className="sr-only"> (done)</span>}
          </>
        );
        return (
          <li
            key={name}
            aria-current={state === 'current' ? 'step' : undefined}
            className={clsx(
              'items-center gap-1.5',
              // On a phone only the current step and those that can be opened are listed; the
              // bar says the rest. The current one was hidden there too (issue 43, item 8).
              href || state === 'current' ? 'flex' : 'hidden sm:flex',
              state === 'current'
                ? 'font-semibold text-indigo-700 dark:text-indigo-300'
                : state === 'done'
                  ? 'text-slate-700 dark:text-slate-300'
                  : 'text-slate-500 dark:text-slate-400',
            )}
          >
            {href ? (
              <Link
                to={href}
                className="flex items-center gap-1.5 rounded underline-offset-2 hover:underline focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none"
              >
                {content}
              </Link>
            ) : (
              content
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** A step's primary action row. */
export function StepActions({ children }: { children: ReactNode }) {
  return <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-end">{children}</div>;
}
