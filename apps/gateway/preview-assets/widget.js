// The embed script of a published agent's chat widget:
//   <script src="https://AGENTLOOM/w/widget.js" data-agent="AGENT_ID" async></script>
// It asks the platform whether this site may embed the agent (only the owner's allowed sites get
// an answer), then adds a chat bubble that opens the agent's chat in a frame. A site that is not
// allowed shows its visitors nothing (a console warning for its developer); the owner's test link
// (the page's address + #agentloom-check, from the publish panel's "Test it on my site") shows a
// note instead: that the chat works there, or which site to allow. No key is in the page: the
// frame talks to the platform itself, which limits each visitor.
'use strict';

(function () {
  const script = document.currentScript;
  if (!script || !script.dataset.agent) return;
  const agentId = script.dataset.agent;
  const base = new URL(script.src).origin;
  // Only the owner opens the page this way; a visitor never sees why the chat is missing.
  const ownerCheck = /(^|[#&])agentloom-check(&|$)/.test(location.hash.slice(1));

  fetch(`${base}/w/${encodeURIComponent(agentId)}/config`)
    .then(async (response) => {
      const body = await response.json().catch(() => ({}));
      if (!response.ok) throw new Error(body.detail || `Agentloom answered ${response.status}.`);
      addBubble(body);
      if (ownerCheck) {
        addNotice(
          'The chat works on this site',
          `Visitors of ${location.origin} see the chat button in the corner.`,
          'ok',
        );
      }
    })
    .catch((error) => {
      // The refusal is the owner's business: their publish panel lists the refused site with an
      // Allow button, and their test link shows it here; visitors see no broken-looking notice.
      const reason = error.message || 'This site may not embed this agent.';
      console.warn(`Agentloom widget: ${reason} Site to allow: ${location.origin}`);
      if (ownerCheck) {
        addNotice('Chat unavailable on this site', `${reason} Site to allow: ${location.origin}`);
      }
    });

  /** A speech-bubble icon drawn as SVG: emoji render as empty boxes without an emoji font. */
  function chatIcon() {
    const ns = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('viewBox', '0 0 24 24');
    svg.setAttribute('width', '26');
    svg.setAttribute('height', '26');
    svg.setAttribute('aria-hidden', 'true');
    const path = document.createElementNS(ns, 'path');
    path.setAttribute(
      'd',
      'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z',
    );
    path.setAttribute('fill', 'none');
    path.setAttribute('stroke', 'currentColor');
    path.setAttribute('stroke-width', '2');
    path.setAttribute('stroke-linejoin', 'round');
    svg.append(path);
    return svg;
  }

  /** The owner's note (test link only), where the bubble is or just above it. */
  function addNotice(heading, message, tone) {
    const host = document.createElement('div');
    host.setAttribute('data-agentloom-widget', agentId);
    const shadow = host.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = `
      .notice { position: fixed; right: 20px; bottom: 20px; max-width: min(320px, calc(100vw - 40px));
        padding: 12px 14px; border: 1px solid #f59e0b; border-radius: 10px; background: #fffbeb;
        color: #78350f; font: 14px/1.4 system-ui, sans-serif; box-shadow: 0 4px 14px rgba(0,0,0,.15);
        z-index: 2147483646; }
      .notice.ok { bottom: 88px; border-color: #16a34a; background: #f0fdf4; color: #14532d; }
      .notice strong { display: block; margin-bottom: 4px; }
      .notice button { margin-top: 8px; border: 0; background: none; color: inherit;
        text-decoration: underline; cursor: pointer; padding: 0; font: inherit; }`;
    const notice = document.createElement('div');
    notice.className = tone === 'ok' ? 'notice ok' : 'notice';
    notice.setAttribute('role', 'status');
    const title = document.createElement('strong');
    title.textContent = heading;
    const text = document.createElement('span');
    text.textContent = `${message} Only your test link shows this note.`;
    const close = document.createElement('button');
    close.type = 'button';
    close.textContent = 'Dismiss';
    close.addEventListener('click', () => host.remove());
    notice.append(title, text, document.createElement('br'), close);
    shadow.append(style, notice);
    document.body.append(host);
  }

  function addBubble(agent) {
    const host = document.createElement('div');
    host.setAttribute('data-agentloom-widget', agentId);
    const shadow = host.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = `
      .bubble { position: fixed; right: 20px; bottom: 20px; width: 56px; height: 56px;
        border-radius: 50%; border: 0; background: #4f46e5; color: #fff; display: grid;
        place-items: center; cursor: pointer; box-shadow: 0 4px 14px rgba(0,0,0,.25); z-index: 2147483646; }
      .panel { position: fixed; right: 20px; bottom: 88px; width: min(380px, calc(100vw - 40px));
        height: min(560px, calc(100vh - 120px)); border: 1px solid #d4d4d8; border-radius: 12px;
        background: #fff; box-shadow: 0 8px 30px rgba(0,0,0,.2); z-index: 2147483646; }
      .panel[hidden] { display: none; }
      iframe { width: 100%; height: 100%; border: 0; border-radius: 12px; }`;
    const bubble = document.createElement('button');
    bubble.className = 'bubble';
    bubble.type = 'button';
    bubble.append(chatIcon());
    bubble.setAttribute('aria-label', `Chat with ${agent.name}`);
    bubble.setAttribute('aria-expanded', 'false');
    const panel = document.createElement('div');
    panel.className = 'panel';
    panel.hidden = true;
    bubble.addEventListener('click', () => {
      if (!panel.firstChild) {
        const frame = document.createElement('iframe');
        frame.title = agent.name;
        frame.src = agent.chat_url;
        panel.append(frame);
      }
      panel.hidden = !panel.hidden;
      bubble.setAttribute('aria-expanded', String(!panel.hidden));
    });
    shadow.append(style, panel, bubble);
    document.body.append(host);
  }
})();
