// The chat page of a live preview: asks the gateway (/p/{token}/ask) and renders the answer as it
// streams in (server-sent events over fetch), with its sources or its SQL and result table.
// Plain DOM code, no framework: the page must load instantly inside the web app's frame.
'use strict';

(function () {
  const {
    element,
    formatBytes,
    onMessage,
    startExchange,
    answerEvents,
    sourceList,
    curatedSource,
    jsonOf,
  } = window.Agentloom;
  const { config, base, workspace, showNotice } = window.Agentloom.previewPage();

  const chat = element('div', { className: 'chat', role: 'log', 'aria-label': 'Conversation' });
  const form = element('form', { className: 'ask', 'aria-label': 'Ask the agent' });
  const input = element('textarea', {
    id: 'question',
    name: 'question',
    rows: 1,
    maxLength: 2000,
    placeholder: config.kind === 'sql' ? 'Ask about your table…' : 'Ask a question…',
    'aria-label': 'Your question',
  });
  const send = element('button', { type: 'submit', className: 'primary', textContent: 'Submit' });
  const clear = element('button', { type: 'button', textContent: 'Clear' });
  form.append(input, send, clear);
  workspace.append(chat, form);

  /** A cited passage of this preview's build (GET /p/{token}/passages/{id}). */
  const openPassage = async (id) =>
    jsonOf(await fetch(`${base}passages/${encodeURIComponent(id)}`));

  clear.addEventListener('click', () => chat.replaceChildren());
  onMessage({ form, input, send }, ask);
  void loadInfo();

  // Technical facts (retrieval mode, memory) are folded away: most people never need them, and
  // whoever does opens "Details". A fallback that changes the answers is also a notice on top.
  async function loadInfo() {
    try {
      const response = await fetch(`${base}info`);
      const info = await response.json();
      if (!response.ok) throw new Error(info.detail || 'Preview unavailable');
      const list = document.getElementById('facts');
      const add = (target, term, value) =>
        target.append(element('dt', { textContent: term }), element('dd', { textContent: value }));
      add(list, 'Agent', info.kind === 'rag' ? 'RAG chatbot' : 'SQL analyst');
      add(list, 'Source', info.source);
      for (const table of info.tables || []) {
        const columns = table.columns.map((column) => `${column.name} (${column.type})`);
        add(list, `Table ${table.name}`, columns.join(', '));
      }
      add(list, 'Link expires', new Date(info.expires_at).toLocaleString());
      const details = element('details', { className: 'tech' });
      const facts = element('dl', { className: 'facts' });
      details.append(element('summary', { textContent: 'Details' }), facts);
      if (info.retrieval) {
        add(
          facts,
          'Retrieval',
          info.retrieval.mode === 'embeddings'
            ? `Embeddings · ${info.retrieval.chunks} chunks`
            : `Keyword (full-text) · ${info.retrieval.chunks} chunks`,
        );
        if (info.retrieval.note) {
          add(facts, 'Note', info.retrieval.note);
          // A fallback changes the answers: said where people look, above the chat.
          showNotice(`Answers may be less precise: ${info.retrieval.note}`);
        }
      }
      add(facts, 'Preview memory', formatBytes(info.memory_bytes));
      list.after(details);
    } catch (error) {
      showNotice(error.message);
    }
  }

  async function ask(question) {
    const { answer, text } = startExchange(chat, question);
    answer.scrollIntoView({ block: 'end' });
    send.disabled = true;
    let sources = [];
    let failed = false;
    /** The query the agent wrote, relabelled if it never answered. */
    let sql = null;
    try {
      const response = await fetch(`${base}ask`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: JSON.stringify({ question }),
      });
      for await (const event of answerEvents(response, 'The preview')) {
        if (event.type === 'retrieval') sources = event.sources;
        else if (event.type === 'curated') sources = [curatedSource(event)];
        else if (event.type === 'sql') {
          sql = sqlBlock(event.sql);
          answer.insertBefore(sql, text);
        } else if (event.type === 'table') answer.insertBefore(resultTable(event), text);
        else if (event.type === 'token') text.textContent += event.text;
        else if (event.type === 'error') {
          failed = true;
          if (sql) {
            // Refused or failed: it did not answer, and the label must not say it ran.
            sql.querySelector('summary').textContent = 'SQL query it tried (did not answer)';
            sql.open = true;
          }
          answer.append(failure(event, question));
        }
        answer.scrollIntoView({ block: 'end' });
      }
      // Sources belong to an answer; a failed one has none to show.
      if (!failed && sources.length > 0)
        answer.append(sourceList(sources, { open: true, openPassage }));
    } catch (error) {
      failed = true;
      answer.append(failure({ message: error.message || 'Preview unavailable' }, question));
    } finally {
      answer.classList.toggle('error', failed);
      answer.removeAttribute('aria-busy');
      send.disabled = false;
      input.focus();
    }
  }

  /**
   * Failures a second try can get past (the provider busy, away, or stopped); a rejected key, a
   * model not offered or the agent's own refusal would only fail again.
   */
  const RETRY_HELPS = new Set(['rate', 'unavailable', 'unreachable', 'stopped', 'other']);

  /** A failed answer: plain words, the fix (a link) or a retry that can help, details folded. */
  function failure(event, question) {
    const box = element('div', { className: 'failure', role: 'alert' });
    box.append(
      element('p', { className: 'failure-text', textContent: event.message || event.detail }),
    );
    const actions = element('div', { className: 'failure-actions' });
    if (event.action) {
      // The agent's settings live in the web app around this frame.
      actions.append(
        element('a', {
          className: 'button',
          href: event.action.href,
          target: '_top',
          textContent: event.action.label,
        }),
      );
    }
    if (RETRY_HELPS.has(event.reason)) {
      const retry = element('button', { type: 'button', textContent: 'Try again' });
      retry.addEventListener('click', () => {
        if (!send.disabled) void ask(question);
      });
      actions.append(retry);
    } else if (!event.action) {
      // The agent's own refusal (a query it may not run, data it cannot read) comes back the
      // same for the same question: ask it another way instead.
      const rephrase = element('button', { type: 'button', textContent: 'Ask it another way' });
      rephrase.addEventListener('click', () => {
        input.value = question;
        input.focus();
      });
      actions.append(rephrase);
    }
    box.append(actions);
    if (event.message && event.detail && event.detail !== event.message) {
      const details = element('details', { className: 'tech' });
      details.append(
        element('summary', { textContent: 'Details' }),
        element('p', { textContent: event.detail }),
      );
      box.append(details);
    }
    return box;
  }

  /** The query the agent ran, folded: the answer and its table come first. */
  function sqlBlock(sql) {
    const block = element('details', { className: 'sql' });
    block.append(
      element('summary', { textContent: 'SQL query it ran' }),
      element('pre', { textContent: sql }),
    );
    return block;
  }

  function resultTable(result) {
    const wrap = element('div', { className: 'table-wrap sql' });
    const table = element('table');
    const head = element('tr');
    for (const column of result.columns) head.append(element('th', { textContent: column }));
    table.append(element('thead'), element('tbody'));
    table.tHead.append(head);
    for (const row of result.rows) {
      const line = element('tr');
      for (const cell of row)
        line.append(element('td', { textContent: cell === null ? 'NULL' : String(cell) }));
      table.tBodies[0].append(line);
    }
    wrap.append(table);
    if (result.truncated) {
      wrap.append(
        element('p', {
          className: 'snippet',
          textContent: `First ${result.rows.length} rows shown.`,
        }),
      );
    }
    return wrap;
  }
})();
