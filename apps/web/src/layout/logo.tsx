import { Bot } from 'lucide-react';

export function Logo() {
  return (
    <span className="flex items-center gap-2 text-lg font-bold tracking-tight text-slate-900 dark:text-white">
      <span className="grid h-8 w-8 place-items-center rounded-lg bg-indigo-600 text-white">
        <Bot aria-hidden="true" className="h-5 w-5" />
      </span>
      Agentloom
    </span>
  );
}
