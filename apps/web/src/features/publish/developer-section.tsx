import { agentSlug, type TPublication } from '@agentloom/contracts';
import { clsx } from 'clsx';
import { useState } from 'react';
import { CopyButton } from '../../components/ui';
import { AccessKeysSection } from './access-keys-section';
import { codeExamples, KEY_PLACEHOLDER, openAiBaseUrl, type CodeExample } from './code-examples';
import { CopyRow } from './copy-row';

/**
 * The developer's part of a published agent, folded under the share page and widget that most
 * owners came for: the API with code examples, the MCP server and the access keys. A key made
 * here is filled into the examples at once (it is shown only once), so they run as pasted.
 */
export function DeveloperSection({
  state,
  agentId,
  agentName,
}: {
  state: TPublication;
  agentId: string;
  agentName: string;
}) {
  const [accessKey, setAccessKey] = useState<string | null>(null);
  return (
    <details className="rounded-lg border border-slate-200 p-3 dark:border-slate-700">
      <summary className="cursor-pointer text-sm font-semibold text-slate-900 dark:text-white">
        For developers: API, MCP server and access keys
      </summary>
      <div className="mt-3 space-y-4">
        <AccessKeysSection agentId={agentId} onCreated={setAccessKey} />
        <ApiSection state={state} agentId={agentId} accessKey={accessKey} />
        <McpSection state={state} agentName={agentName} accessKey={accessKey} />
      </div>
    </details>
  );
}

function ApiSection({
  state,
  agentId,
  accessKey,
}: {
  state: TPublication;
  agentId: string;
  accessKey: string | null;
}) {
  const examples = codeExamples(state.api_url, agentId, accessKey ?? KEY_PLACEHOLDER);
  const [shown, setShown] = useState<CodeExample['id']>('curl');
  const example = examples.find((item) => item.id === shown) ?? examples[0]!;
  return (
    <div className="space-y-2 text-sm">
      <h4 className="font-semibold text-slate-900 dark:text-white">Use it from your own code</h4>
      <p className="text-slate-700 dark:text-slate-300">
        {accessKey
          ? 'These examples carry the key you just made. '
          : 'Make an access key below: the examples then carry it. '}
        OpenAI clients work too: base URL{' '}
        <code className="break-all">{openAiBaseUrl(state.api_url)}</code>, model{' '}
        <code className="break-all">{agentId}</code>.
      </p>
      <CopyRow text={state.api_url} label="Copy API address" what="API address" />
      <div role="tablist" aria-label="Code example language" className="flex flex-wrap gap-1">
        {examples.map((item) => (
          <button
            key={item.id}
            type="button"
            role="tab"
            aria-selected={item.id === shown}
            onClick={() => setShown(item.id)}
            className={clsx(
              'rounded-md px-2.5 py-1 text-xs font-semibold focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none',
              item.id === shown
                ? 'bg-indigo-600 text-white dark:bg-indigo-400 dark:text-slate-950'
                : 'bg-slate-100 text-slate-800 hover:bg-slate-200 dark:bg-slate-800 dark:text-slate-200',
            )}
          >
            {item.title}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={`${example.title} example`} className="space-y-2">
        <pre className="overflow-x-auto rounded bg-slate-100 p-2 text-xs dark:bg-slate-800">
          <code>{example.code}</code>
        </pre>
        <CopyButton text={example.code} label={`Copy ${example.title} example`} what="Example" />
      </div>
    </div>
  );
}

/**
 * The agent's MCP server: its address and a configuration MCP clients (Claude Desktop, Cursor,
 * VS Code…) take as it is, once the placeholder is replaced by one of the access keys below.
 */
function McpSection({
  state,
  agentName,
  accessKey,
}: {
  state: TPublication;
  agentName: string;
  accessKey: string | null;
}) {
  const config = mcpClientConfig(state.mcp_url, agentName, accessKey ?? KEY_PLACEHOLDER);
  return (
    <div className="space-y-1 text-sm">
      <h4 className="font-semibold text-slate-900 dark:text-white">MCP server</h4>
      <p className="text-slate-700 dark:text-slate-300">
        MCP clients: <code className="break-all">{state.mcp_url}</code> (streamable HTTP) with an
        access key as the bearer token. Paste this into the client&apos;s MCP settings
        {accessKey ? ' (it carries the key you just made)' : ', with your access key in it'}:
      </p>
      <pre
        aria-label="MCP client configuration"
        className="rounded bg-slate-100 p-2 text-xs break-all whitespace-pre-wrap dark:bg-slate-800"
      >
        {config}
      </pre>
      <CopyButton text={config} label="Copy configuration" what="MCP configuration" />
    </div>
  );
}

/** The `mcpServers` entry most MCP clients read, named after the agent. */
export function mcpClientConfig(url: string, agentName: string, key = KEY_PLACEHOLDER): string {
  const name = agentSlug(agentName);
  const server = { type: 'http', url, headers: { Authorization: `Bearer ${key}` } };
  return JSON.stringify({ mcpServers: { [name]: server } }, null, 2);
}
