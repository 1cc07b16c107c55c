// The chat of a published agent: its share page and the frame its widget opens on other sites.
// Sends each message to /w/{id}/messages and renders the answer as it streams in, with its sources
// and thumbs up/down. The conversation lives for the tab (sessionStorage), so the agent remembers
// earlier turns until "New conversation". Plain DOM code: it must load instantly in a frame.
'use strict';

(function () {
  const { element, onMessage, startExchange, answerEvents, sourceList } = window.Agentloom;
  const config = JSON.parse(document.getElementById('agent-config').textContent);
  const log = document.getElementById('log');
  const form = document.getElementById('ask');
  const input = document.getElementById('message');
  const send = form.querySelector('button[type="submit"]');
  const storageKey = `agentloom-conversation-${config.agentId}-${config.mode}`;
  let conversationId = readConversation();

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
  onMessage({ form, input, send }, ask);

  async function ask(message) {
    const { answer, text } = startExchange(log, message);
    send.disabled = true;
    let sources = [];
    let saved = null;
    try {
      const response = await fetch(`/w/${config.agentId}/messages`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: JSON.stringify({ message, conversation_id: conversationId, via: config.mode }),
      });
      for await (const event of answerEvents(response, 'The agent')) {
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
})();
