import { wizardPaths, type TSourceSample, type TUploadedFile } from '@agentloom/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';

/**
 * The uploaded file as the agent will read it: how much there is, and its first rows (tables)
 * or passages (documents), so a person sees their own data rather than a file name.
 */
export function SourceSample({ sessionId, file }: { sessionId: string; file: TUploadedFile }) {
  const sample = useQuery({
    // A new upload (its time) is a new sample.
    queryKey: ['source-sample', sessionId, file.uploaded_at],
    queryFn: () => api<TSourceSample>(wizardPaths.sourceSample(sessionId)),
  });
  if (!sample.data) return null;
  const { counts, columns, rows, passages } = sample.data;
  return (
    <section
      aria-label="Your data"
      className="space-y-3 rounded-lg border border-slate-200 p-4 text-sm dark:border-slate-700"
    >
      <p className="text-slate-800 dark:text-slate-200">
        <span className="font-medium">{file.original_name}</span> · {counts}
      </p>
      {columns.length > 0 && (
        <div className="overflow-x-auto">
          <table className="min-w-full text-left text-xs">
            <caption className="sr-only">First rows of {file.original_name}</caption>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column} scope="col" className="px-2 py-1 font-semibold">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => (
                <tr key={index} className="border-t border-slate-200 dark:border-slate-700">
                  {row.map((cell, column) => (
                    <td key={column} className="px-2 py-1 text-slate-700 dark:text-slate-300">
                      {cell}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {passages.map((passage, index) => (
        <blockquote
          key={index}
          className="border-l-2 border-indigo-300 pl-3 text-slate-700 dark:text-slate-300"
        >
          {passage}
        </blockquote>
      ))}
    </section>
  );
}
