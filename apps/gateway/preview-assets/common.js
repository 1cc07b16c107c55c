// Shared by the gateway's browser pages: the preview pages (chat and image agent) and a published
// agent's share page and widget frame. A small DOM helper, the chat plumbing both chats use, and
// the preview pages' frame (configuration, base of its calls, theme). Loaded before the page's
// own script.
'use strict';

window.Agentloom = (function () {
  function element(tag, properties = {}) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(properties)) {
      if (name.includes('-') || name === 'role') node.setAttribute(name, String(value));
      else node[name] = value;
    }
    return node;
  }

  function formatBytes(bytes) {
    if (bytes < 1024) return `${bytes} B`;
    if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
    return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  }

  /**
   * A chat's message box: Enter sends (Shift+Enter starts a new line), and a message that is not
   * empty goes to `ask` unless an answer is still coming (the send button is then disabled).
   */
  function onMessage({ form, input, send }, ask) {
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey) {
        event.preventDefault();
        form.requestSubmit();
      }
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const message = input.value.trim();
      if (!message || send.disabled) return;
      input.value = '';
      void ask(message);
    });
  }

  /** Adds the user's message and an empty, busy answer to the log; the answer fills its text. */
  function startExchange(log, message) {
    log.append(element('div', { className: 'message user', textContent: message }));
    const answer = element('div', { className: 'message assistant', 'aria-busy': 'true' });
    const text = element('span', { className: 'answer-text' });
    answer.append(text);
    log.append(answer);
    return { answer, text };
  }

  /**
   * The JSON events of a streamed answer. A refusal (no stream) throws its detail, or
   * "`speaker` answered 503." when it has none.
   */
  async function* answerEvents(response, speaker) {
    if (!response.ok || !response.body) {
      const body = await response.json().catch(() => ({}));
      throw new Error(body.detail || `${speaker} answered ${response.status}.`);
    }
    yield* serverSentEvents(response.body);
  }

  /** Parses a text/event-stream body into its JSON events. */
  async function* serverSentEvents(body) {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n');
        if (data) yield JSON.parse(data);
      }
    }
  }

  /** The passages an answer comes from, under "Sources (n)"; `open` shows them unfolded. */
  function sourceList(items, { open = false } = {}) {
    const details = element('details', { className: 'sources', open });
    details.append(element('summary', { textContent: `Sources (${items.length})` }));
    const list = element('ol');
    for (const source of items) {
      const item = element('li');
      item.append(
        element('strong', { textContent: source.citation }),
        document.createTextNode(' — '),
        element('span', { className: 'snippet', textContent: source.snippet }),
      );
      list.append(item);
    }
    details.append(list);
    return details;
  }

  /** A curated answer's one source: the owner's answer, and the question it was written for. */
  function curatedSource(event) {
    return { citation: 'Answer written by the owner', snippet: event.question };
  }

  /**
   * The frame of a preview page around its script: the page's configuration, the base of its
   * calls, its workspace and notice line, and the light/dark theme (set up on the first call).
   */
  function previewPage() {
    const config = JSON.parse(document.getElementById('preview-config').textContent);
    // Calls are relative to the page's own link, /p/{token}/.
    const base = location.pathname.endsWith('/') ? location.pathname : `${location.pathname}/`;
    const workspace = document.getElementById('workspace');
    const notice = document.getElementById('notice');
    const showNotice = (message) => {
      notice.textContent = message;
      notice.hidden = false;
    };
    setUpTheme();
    return { config, base, workspace, showNotice };
  }

  /** Light or dark: ?theme= from the embedding app, else the last choice, else the system's. */
  function setUpTheme() {
    const root = document.documentElement;
    const asked = new URLSearchParams(location.search).get('theme');
    let stored = null;
    try {
      stored = localStorage.getItem('agentloom-preview-theme');
    } catch {
      // storage can be blocked inside a frame; the theme then just is not remembered
    }
    const dark = asked
      ? asked === 'dark'
      : stored
        ? stored === 'dark'
        : matchMedia('(prefers-color-scheme: dark)').matches;
    const toggle = document.getElementById('theme-toggle');
    const apply = (isDark) => {
      root.dataset.theme = isDark ? 'dark' : 'light';
      toggle.textContent = isDark ? 'Light mode' : 'Dark mode';
    };
    apply(dark);
    toggle.addEventListener('click', () => {
      const next = root.dataset.theme !== 'dark';
      apply(next);
      try {
        localStorage.setItem('agentloom-preview-theme', next ? 'dark' : 'light');
      } catch {
        // see above
      }
    });
  }

  return {
    element,
    formatBytes,
    onMessage,
    startExchange,
    answerEvents,
    sourceList,
    curatedSource,
    previewPage,
  };
})();
