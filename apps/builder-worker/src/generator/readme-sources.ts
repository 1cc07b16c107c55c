import { SOURCE_TYPE_LABELS } from '@agentloom/contracts';
import type { AgentManifest } from './manifest';
import type { ManifestKnowledgeSource } from './manifest-sources';
import { markdownText, tableRow } from './markdown';

const FILE_LABELS: Record<string, string> = {
  ...SOURCE_TYPE_LABELS,
  docx: 'Word',
  markdown: 'Markdown',
  html: 'HTML',
};

/** A source's row in the README: its name (escaped), what it is, where the agent reads it. */
function sourceRow(source: ManifestKnowledgeSource): string {
  const label = FILE_LABELS[source.type] ?? source.type;
  const [kind, where] =
    source.kind === 'file'
      ? [`${label} file`, `\`${source.file}\``]
      : source.kind === 'table'
        ? [
            `${label} ${source.type === 'mongo' ? 'collection' : 'table'}`,
            `\`${source.url_env}\` in \`.env\``,
          ]
        : [
            source.max_pages && source.max_pages > 1
              ? `web pages (up to ${source.max_pages}${source.sitemap ? ', from a sitemap' : ''})`
              : 'web page',
            markdownText(source.url ?? ''),
          ];
  return tableRow([`**${markdownText(source.name)}**`, kind, where]);
}

/** README.md's "Knowledge sources": what the agent answers from, and how to change it. */
export function sourcesSection(manifest: AgentManifest): string {
  const sources = manifest.sources ?? [];
  return [
    `The agent answers from ${sources.length === 1 ? 'this source' : `these ${sources.length} sources`} (\`sources\` in \`agent.json\`):`,
    '',
    '| Source | Kind | Read from |',
    '| --- | --- | --- |',
    ...sources.map(sourceRow),
    '',
    '`python -m agent index` brings the vector store in line with the sources: it embeds only the',
    'passages the store has no vector for yet, removes those whose source no longer has them, and',
    'keeps the rest, then says what it did (for example "Embedded 12 new passages, kept 480,',
    'removed 3."). The app does the same at every start.',
    '',
    '**Add a file.** Copy it into `data/`, add an entry to `sources` in `agent.json`, then run',
    '`python -m agent index`. `type` is one of pdf, csv, excel, text_file, docx, markdown, html;',
    '`key` is any name no other source uses:',
    '',
    '```json',
    '{ "key": "prices", "name": "prices.pdf", "kind": "file", "type": "pdf", "file": "data/prices.pdf" }',
    '```',
    '',
    '**Add a table.** Add an entry like this one (type postgres, mysql, sqlite or mongo), put the',
    "table's connection URL in `.env` under the name `url_env` gives, then run",
    '`python -m agent index`:',
    '',
    '```json',
    '{ "key": "orders", "name": "orders", "kind": "table", "type": "postgres", "database": "shop",',
    '  "table": "orders", "url_env": "DATABASE_URL_ORDERS" }',
    '```',
    '',
    '**Add web pages.** Add an entry like this one, then run `python -m agent index`:',
    '',
    '```json',
    '{ "key": "docs", "name": "Our docs", "kind": "web", "url": "https://example.com/docs",',
    '  "max_pages": 20, "sitemap": false }',
    '```',
    '',
    '**Replace a file.** Put the new version in `data/` under the same name, then run',
    '`python -m agent index`: only the passages whose text changed are embedded; the old ones are',
    'removed.',
    '',
    '**Refresh a table or web pages.** Tables are read again at every `python -m agent index` (and',
    'every start): new and changed rows are embedded, deleted rows removed. Web pages come from',
    '`data/chunks.jsonl` as they were when Agentloom built the agent;',
    '`python -m agent index --from-source` fetches them again (and reads every other source itself',
    'too, instead of the prepared passages).',
    '',
    '**Remove a source.** Delete its entry from `sources` (and its file from `data/`), then run',
    '`python -m agent index`: its passages leave the vector store.',
    '',
    'The index records what the store holds in `.agent-index/` (`INDEX_RECORDS_PATH`; docker',
    'compose keeps it in a volume). When the records do not match the store (another embedding',
    'model, a store emptied by hand), everything is embedded again, once.',
    '`python -m agent index --rebuild` does that on purpose.',
  ].join('\n');
}
