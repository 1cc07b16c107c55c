import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../components/ui';

/** Every dashboard sub-view has one (docs/product.md#the-dashboard). */
export function BackToDashboard({ onBack }: { onBack: () => void }) {
  return (
    <Button variant="ghost" onClick={onBack} className="-ml-2 mb-4">
      <ArrowLeft aria-hidden="true" className="h-4 w-4" />
      Back to Dashboard
    </Button>
  );
}

/** The id of the shown sub-view's heading: its section's label and the dashboard's focus target. */
export const VIEW_TITLE_ID = 'view-title';

/** A sub-view's heading row: title on the left, actions on the right. */
export function ViewHeader({ title, actions }: { title: string; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      {/* Focusable from script only: a view switch moves focus here (see DashboardPage). */}
      <h2
        id={VIEW_TITLE_ID}
        tabIndex={-1}
        className="text-2xl font-bold text-slate-900 focus:outline-none dark:text-white"
      >
        {title}
      </h2>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}
