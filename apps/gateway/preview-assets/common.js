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

  /**
   * The passages an answer comes from, under "Sources (n)"; `open` shows them unfolded. With
   * `openPassage` (id → the passage as the gateway sends it), each retrieved passage's citation
   * is a button that opens it in the passage viewer.
   */
  function sourceList(items, { open = false, openPassage = null } = {}) {
    const details = element('details', { className: 'sources', open });
    details.append(element('summary', { textContent: `Sources (${items.length})` }));
    const list = element('ol');
    for (const source of items) {
      const item = element('li');
      const citation =
        openPassage && source.id && !source.curated
          ? element('button', {
              type: 'button',
              className: 'citation',
              textContent: source.citation,
              title: 'Show this passage where it comes from',
            })
          : element('strong', { textContent: source.citation });
      if (citation.tagName === 'BUTTON') {
        citation.addEventListener('click', () => showPassage(source, openPassage, citation));
      }
      item.append(
        citation,
        document.createTextNode(' — '),
        element('span', { className: 'snippet', textContent: source.snippet }),
      );
      list.append(item);
    }
    details.append(list);
    return details;
  }

  /**
   * The passage viewer: a modal dialog (Escape or "Close" closes it, focus returns to the
   * citation) showing the cited passage as it lies in the agent's data.
   */
  async function showPassage(source, openPassage, opener) {
    const title = element('h2', { id: 'passage-title', textContent: source.citation });
    const body = element('div', { className: 'passage-body', textContent: 'Loading the passage…' });
    const close = element('button', { type: 'button', className: 'close', textContent: 'Close' });
    const dialog = element('dialog', { className: 'passage', 'aria-labelledby': 'passage-title' });
    dialog.append(title, body, close);
    let closed = false;
    const finish = () => {
      if (closed) return;
      closed = true;
      dialog.remove();
      opener.focus();
    };
    // Browsers without <dialog> (and DOM test runners) close it by removing it.
    const closeDialog = () => (typeof dialog.close === 'function' ? dialog.close() : finish());
    close.addEventListener('click', closeDialog);
    dialog.addEventListener('close', finish);
    dialog.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      closeDialog();
    });
    document.body.append(dialog);
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
    close.focus();
    try {
      const passage = await openPassage(source.id);
      title.textContent = passage.citation;
      body.replaceChildren(...passageContent(passage));
    } catch (error) {
      body.replaceChildren(
        element('p', {
          className: 'error',
          textContent: error.message || 'The passage could not be opened.',
        }),
      );
    }
  }

  /** What the viewer shows of a passage, by its kind. */
  function passageContent(passage) {
    const shown = [];
    if (passage.url && /^https?:\/\//i.test(passage.url)) {
      const link = element('a', {
        href: passage.url,
        textContent: passage.url,
        target: '_blank',
        rel: 'noopener noreferrer',
      });
      const where = element('p', { className: 'where' });
      where.append(document.createTextNode('From the page '), link);
      shown.push(where);
    }
    if (passage.section) {
      shown.push(element('p', { className: 'where', textContent: `Section: ${passage.section}` }));
    }
    if (passage.kind === 'row' && passage.columns.length > 0) shown.push(rowsTable(passage));
    else if (passage.context !== null && passage.highlight) shown.push(markedText(passage));
    else shown.push(...passage.neighbours.map(passageParagraph));
    return shown;
  }

  /** A table's rows around the cited one, under their column names; the cited row marked. */
  function rowsTable(passage) {
    const table = element('table', { className: 'passage-rows' });
    table.append(element('caption', { textContent: `Rows around ${passage.citation}` }));
    const head = element('tr');
    for (const name of ['Row', ...passage.columns]) {
      head.append(element('th', { scope: 'col', textContent: name }));
    }
    const thead = element('thead');
    thead.append(head);
    table.append(thead);
    const rows = element('tbody');
    for (const neighbour of passage.neighbours) {
      const row = element('tr', { className: neighbour.cited ? 'cited' : '' });
      if (neighbour.cited) row.setAttribute('aria-current', 'true');
      const number = neighbour.citation.match(/row (\d+)$/);
      row.append(element('th', { scope: 'row', textContent: number ? number[1] : '' }));
      const cells = new Map((neighbour.cells || []).map((cell) => [cell.column, cell.value]));
      for (const name of passage.columns) {
        row.append(element('td', { textContent: cells.get(name) ?? '' }));
      }
      rows.append(row);
    }
    table.append(rows);
    return table;
  }

  /** A page's text with the cited passage marked. */
  function markedText(passage) {
    const { start, end } = passage.highlight;
    const text = passage.context;
    const block = element('p', { className: 'passage-text' });
    block.append(
      document.createTextNode(text.slice(0, start)),
      element('mark', { textContent: text.slice(start, end) }),
      document.createTextNode(text.slice(end)),
    );
    return block;
  }

  function passageParagraph(neighbour) {
    const block = element('p', { className: 'passage-text' });
    block.append(
      neighbour.cited
        ? element('mark', { textContent: neighbour.text })
        : document.createTextNode(neighbour.text),
    );
    return block;
  }

  /** A JSON answer, or its `detail` thrown as an error. */
  async function jsonOf(response) {
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body.detail || `The passage could not be opened.`);
    return body;
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
    showPassage,
    jsonOf,
    curatedSource,
    previewPage,
  };
})();
