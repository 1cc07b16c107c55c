// The chat of a published agent: its share page and the frame its widget opens on other sites.
// Sends each message to /w/{id}/messages and renders the answer as it streams in, with its sources
// and thumbs up/down. The conversation lives for the tab (sessionStorage), so the agent remembers
// earlier turns until "New conversation". Plain DOM code: it must load instantly in a frame.
'use strict';

(function () {
  const config = JSON.parse(document.getElementById('agent-config').textContent);
  const log = document.getElementById('log');
  const form = document.getElementById('ask');
  const input = document.getElementById('message');
  const send = form.querySelector('button[type="submit"]');
  const storageKey = `agentloom-conversation-${config.agentId}-${config.mode}`;
  let conversationId = readConversation();

  function element(tag, properties = {}) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(properties)) {
      if (name.includes('-') || name === 'role') node.setAttribute(name, String(value));
      else node[name] = value;
    }
    return node;
  }

  function readConversation() {
    try {
      return sessionStorage.getItem(storageKey);
    } catch {
      return null; // storage can be blocked inside a frame: each message then starts afresh
    }
  }

  function keepConversation(id) {
    conversationId = id;
    try {
      if (id) sessionStorage.setItem(storageKey, id);
      else sessionStorage.removeItem(storageKey);
    } catch {
      // see readConversation
    }
  }

  document.getElementById('new-conversation').addEventListener('click', () => {
    keepConversation(null);
    log.replaceChildren();
    input.focus();
  });
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

  async function ask(message) {
    log.append(element('div', { className: 'message user', textContent: message }));
    const answer = element('div', { className: 'message assistant', 'aria-busy': 'true' });
    const text = element('span', { className: 'answer-text' });
    answer.append(text);
    log.append(answer);
    send.disabled = true;
    let sources = [];
    let saved = null;
    try {
      const response = await fetch(`/w/${config.agentId}/messages`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: JSON.stringify({ message, conversation_id: conversationId, via: config.mode }),
      });
      if (!response.ok || !response.body) {
        const body = await response.json().catch(() => ({}));
        throw new Error(body.detail || `The agent answered ${response.status}.`);
      }
      for await (const event of serverSentEvents(response.body)) {
        if (event.type === 'conversation') keepConversation(event.conversation_id);
        else if (event.type === 'retrieval') sources = event.sources;
        else if (event.type === 'token') text.textContent += event.text;
        else if (event.type === 'saved') saved = event.message_id;
        else if (event.type === 'error') {
          answer.classList.add('error');
          text.textContent += (text.textContent ? '\n' : '') + event.detail;
        }
        answer.scrollIntoView({ block: 'end' });
      }
      if (sources.length > 0) answer.append(sourceList(sources));
      if (saved) answer.append(feedbackButtons(saved));
    } catch (error) {
      answer.classList.add('error');
      text.textContent = error.message || 'The agent is not available.';
    } finally {
      answer.removeAttribute('aria-busy');
      send.disabled = false;
      input.focus();
    }
  }

  function feedbackButtons(messageId) {
    const bar = element('div', { className: 'feedback' });
    const rate = async (rating, button) => {
      const response = await fetch(`/w/${config.agentId}/messages/${messageId}/feedback`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ conversation_id: conversationId, rating }),
      });
      if (response.ok) {
        for (const other of bar.querySelectorAll('button'))
          other.setAttribute('aria-pressed', 'false');
        button.setAttribute('aria-pressed', 'true');
      }
    };
    for (const [rating, label] of [
      ['up', 'Helpful'],
      ['down', 'Not helpful'],
    ]) {
      const button = element('button', {
        type: 'button',
        textContent: rating === 'up' ? '👍' : '👎',
        title: label,
        'aria-label': label,
        'aria-pressed': 'false',
      });
      button.addEventListener('click', () => void rate(rating, button));
      bar.append(button);
    }
    return bar;
  }

  function sourceList(items) {
    const details = element('details', { className: 'sources' });
    details.append(element('summary', { textContent: `Sources (${items.length})` }));
    const list = element('ol');
    for (const source of items) {
      const item = element('li');
      item.append(
        element('strong', { textContent: source.citation }),
        document.createTextNode(' — '),
        element('span', { textContent: source.snippet }),
      );
      list.append(item);
    }
    details.append(list);
    return details;
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
})();
