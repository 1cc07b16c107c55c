/** HTML of the preview pages. Every value is escaped; configuration travels as JSON data. */

import { documentStart, escapeHtml, jsonData } from '../common/served-pages';

export interface PreviewPageModel {
  kind: 'rag' | 'sql' | 'image';
  name: string;
  ui: 'gradio' | 'streamlit';
}

const SUBTITLES: Record<PreviewPageModel['kind'], string> = {
  rag: 'Ask questions about your data. Answers cite the passages they come from.',
  sql: 'Ask questions about your table. The agent writes a read-only SQL query, runs it and explains the result.',
  image:
    'Describe an image and generate it with Gemini, or upload an image and describe the edits.',
};

/**
 * The page looks like the UI the user chose for the agent: Gradio's block layout or
 * Streamlit's sidebar-and-main layout, each in light and dark.
 */
export function renderPreviewPage(model: PreviewPageModel): string {
  const name = escapeHtml(model.name);
  const script = model.kind === 'image' ? 'image.js' : 'preview.js';
  return `${documentStart(`${name} · Agentloom preview`)}
<script type="application/json" id="preview-config">${jsonData(model)}</script>
<script src="/p/_assets/common.js" defer></script>
<script src="/p/_assets/${script}" defer></script>
</head>
<body class="ui-${model.ui} kind-${model.kind}">
<div class="app">
  <aside class="sidebar" aria-label="About this agent">
    <p class="brand">Agentloom preview</p>
    <h2 class="sidebar-title">${name}</h2>
    <dl class="facts" id="facts"></dl>
    <button type="button" class="theme-toggle" id="theme-toggle">Dark mode</button>
  </aside>
  <main class="main">
    <header class="header">
      <h1>${name}</h1>
      <p class="subtitle">${SUBTITLES[model.kind]}</p>
      <p class="notice" id="notice" role="status" hidden></p>
    </header>
    <section class="workspace" id="workspace" aria-live="polite"></section>
  </main>
</div>
</body>
</html>
`;
}

/** An expired, made-up or broken preview link. */
export function renderMissingPage(detail: string): string {
  return `${documentStart('Preview unavailable')}
</head>
<body class="ui-streamlit">
<main class="missing">
  <h1>Preview unavailable</h1>
  <p>${escapeHtml(detail)}</p>
</main>
</body>
</html>
`;
}
