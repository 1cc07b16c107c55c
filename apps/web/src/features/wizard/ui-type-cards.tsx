import type { TUiFramework } from '@agentloom/contracts';
import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { Badge } from '../../components/ui';
import { GradioIllustration, StreamlitIllustration } from './illustrations';
import { UI_FRAMEWORK_CARDS } from './wizard-content';

const ILLUSTRATIONS: Record<TUiFramework, () => ReactNode> = {
  gradio: GradioIllustration,
  streamlit: StreamlitIllustration,
};

/** The UI step: a card per framework, each with a picture of it; choosing one saves it. */
export function UiTypeCards({
  order,
  selected,
  busy,
  onChoose,
}: {
  order: readonly TUiFramework[];
  selected: TUiFramework | '';
  busy: boolean;
  onChoose: (ui: TUiFramework) => void;
}) {
  return (
    <div role="group" aria-label="UI framework" className="grid gap-4 md:grid-cols-2">
      {order.map((ui) => {
        const card = UI_FRAMEWORK_CARDS[ui];
        const Illustration = ILLUSTRATIONS[ui];
        const active = selected === ui;
        return (
          <button
            key={ui}
            type="button"
            aria-pressed={active}
            disabled={busy}
            onClick={() => onChoose(ui)}
            className={clsx(
              'flex flex-col gap-3 rounded-2xl border-2 p-4 text-left transition-colors',
              'focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 focus-visible:outline-none dark:focus-visible:ring-offset-slate-900',
              'disabled:cursor-not-allowed disabled:opacity-60',
              active
                ? 'border-indigo-600 bg-indigo-50 dark:border-indigo-400 dark:bg-indigo-950'
                : 'border-slate-200 hover:border-indigo-300 dark:border-slate-700 dark:hover:border-indigo-500',
            )}
          >
            <Illustration />
            <span className="text-lg font-semibold text-slate-900 dark:text-white">
              {card.title}
            </span>
            <span className="text-sm text-slate-600 dark:text-slate-300">{card.description}</span>
            <span className="flex flex-wrap gap-2">
              {card.features.map((feature) => (
                <Badge key={feature} tone="indigo">
                  {feature}
                </Badge>
              ))}
            </span>
          </button>
        );
      })}
    </div>
  );
}
