// The chat of a published agent: its share page and the frame its widget opens on other sites.
// Sends each message to /w/{id}/messages and renders the answer as it streams in, with its sources
// and thumbs up/down. The conversation lives for the tab (sessionStorage), so the agent remembers
// earlier turns until "New conversation". Each call carries the visitor session the page was
// served with (kept with the conversation, which belongs to it alone). Plain DOM code: it must
// load instantly in a frame.
'use strict';

(function () {
  const { element, onMessage, startExchange, answerEvents, sourceList, curatedSource, jsonOf } =
    window.Agentloom;
  const config = JSON.parse(document.getElementById('agent-config').textContent);
  const log = document.getElementById('log');
  const form = document.getElementById('ask');
  const input = document.getElementById('message');
  const send = form.querySelector('button[type="submit"]');
  const storageKey = `agentloom-conversation-${config.agentId}-${config.mode}`;
  const stored = readConversation();
  // A conversation kept from before a reload answers only the session that started it.
  const session = stored ? stored.session : config.session;
  let conversationId = stored ? stored.id : null;

  function readConversation() {
    try {
      const kept = JSON.parse(sessionStorage.getItem(storageKey) || 'null');
      return kept && kept.id && kept.session ? kept : null;
    } catch {
      return null; // storage can be blocked inside a frame: each message then starts afresh
    }
  }

  function keepConversation(id) {
    conversationId = id;
    try {
      if (id) sessionStorage.setItem(storageKey, JSON.stringify({ id, session }));
      else sessionStorage.removeItem(storageKey);
    } catch {
      // see readConversation
    }
  }

  const headers = (extra) => ({
    'Content-Type': 'application/json',
    'X-Visitor-Session': session,
    ...extra,
  });

  /** A cited passage of the published build, asked for as the page's messages are. */
  const openPassage = async (id) =>
    jsonOf(
      await fetch(`/w/${config.agentId}/passages`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ passage_id: id }),
      }),
    );

  document.getElementById('new-conversation').addEventListener('click', () => {
    keepConversation(null);
    log.replaceChildren();
    input.focus();
  });
  onMessage({ form, input, send }, ask);

  async function ask(message) {
    const { answer, text } = startExchange(log, message);
    send.disabled = true;
    let sources = [];
    let saved = null;
    try {
      const response = await fetch(`/w/${config.agentId}/messages`, {
        method: 'POST',
        headers: headers({ Accept: 'text/event-stream' }),
        body: JSON.stringify({ message, conversation_id: conversationId }),
      });
      for await (const event of answerEvents(response, 'The agent')) {
        if (event.type === 'conversation') keepConversation(event.conversation_id);
        else if (event.type === 'retrieval') sources = event.sources;
        else if (event.type === 'curated') sources = [curatedSource(event)];
        else if (event.type === 'token') text.textContent += event.text;
        else if (event.type === 'saved') saved = event.message_id;
        else if (event.type === 'error') {
          answer.classList.add('error');
          text.textContent += (text.textContent ? '\n' : '') + event.detail;
        }
        answer.scrollIntoView({ block: 'end' });
      }
      if (sources.length > 0) answer.append(sourceList(sources, { openPassage }));
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
        headers: headers({}),
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
        title: label,
        'aria-label': label,
        'aria-pressed': 'false',
      });
      button.append(thumbIcon(rating));
      button.addEventListener('click', () => void rate(rating, button));
      bar.append(button);
    }
    return bar;
  }

  /** A thumb drawn as SVG (down is up turned over): emoji render as empty boxes without an emoji font. */
  function thumbIcon(rating) {
    const ns = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('viewBox', '0 0 24 24');
    svg.setAttribute('width', '16');
    svg.setAttribute('height', '16');
    svg.setAttribute('aria-hidden', 'true');
    if (rating === 'down') svg.style.transform = 'rotate(180deg)';
    const path = document.createElementNS(ns, 'path');
    path.setAttribute(
      'd',
      'M7 10v11H3V10h4zm0 0 4-8a3 3 0 0 1 3 3v4h5.5a2 2 0 0 1 2 2.3l-1.4 8A2 2 0 0 1 18.1 21H7',
    );
    path.setAttribute('fill', 'none');
    path.setAttribute('stroke', 'currentColor');
    path.setAttribute('stroke-width', '2');
    path.setAttribute('stroke-linejoin', 'round');
    svg.append(path);
    return svg;
  }
})();
