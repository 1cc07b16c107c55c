/** HTML of the share page and of the widget's chat frame. Every value is escaped. */

import { documentStart, escapeHtml, jsonData } from '../common/served-pages';

export interface PublishedPageModel {
  agentId: string;
  name: string;
  kind: 'rag' | 'sql';
  /** share: the public page; widget: the frame the embed script opens on another site. */
  mode: 'share' | 'widget';
  /** The visitor session the page's calls carry (visitor-access.ts). */
  session: string;
}

const HINTS: Record<PublishedPageModel['kind'], string> = {
  rag: 'Ask a question. Answers cite the passages they come from.',
  sql: 'Ask a question about the data. The agent looks it up and explains the result.',
};

export function renderPublishedPage(model: PublishedPageModel): string {
  const name = escapeHtml(model.name);
  return `${documentStart(name, '/w/_assets/published.css')}
<script type="application/json" id="agent-config">${jsonData(model)}</script>
<script src="/w/_assets/common.js" defer></script>
<script src="/w/_assets/published-chat.js" defer></script>
</head>
<body class="mode-${model.mode}">
<main class="agent">
  <header>
    <h1>${name}</h1>
    <p class="hint">${HINTS[model.kind]}</p>
  </header>
  <div class="log" id="log" role="log" aria-label="Conversation" aria-live="polite"></div>
  <form class="ask" id="ask" aria-label="Ask the agent">
    <textarea id="message" name="message" rows="1" maxlength="2000" aria-label="Your message" placeholder="Type your message…"></textarea>
    <button type="submit">Send</button>
  </form>
  <p class="footer">Answers are written by an AI model and can be wrong. <button type="button" id="new-conversation">New conversation</button></p>
</main>
</body>
</html>
`;
}

/** A page that is off, unpublished or made up: the same plain 404 for each. */
export function renderNotFoundPage(): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Not found</title>
<link rel="stylesheet" href="/w/_assets/published.css"></head>
<body><main class="agent"><h1>Not found</h1><p>This agent is not shared here.</p></main></body>
</html>
`;
}
