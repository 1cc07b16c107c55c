// The embed script of a published agent's chat widget:
//   <script src="https://AGENTLOOM/w/widget.js" data-agent="AGENT_ID" async></script>
// It asks the platform whether this site may embed the agent (only the owner's allowed sites get
// an answer), then adds a chat bubble that opens the agent's chat in a frame; a site that is not
// allowed gets a visible notice instead, naming the site to allow. No key is in the
// page: the frame talks to the platform itself, which limits each visitor.
'use strict';

(function () {
  const script = document.currentScript;
  if (!script || !script.dataset.agent) return;
  const agentId = script.dataset.agent;
  const base = new URL(script.src).origin;

  fetch(`${base}/w/${encodeURIComponent(agentId)}/config`)
    .then(async (response) => {
      const body = await response.json().catch(() => ({}));
      if (!response.ok) throw new Error(body.detail || `Agentloom answered ${response.status}.`);
      addBubble(body);
    })
    .catch((error) => {
      // A site that is not allowed gets a notice where the bubble would be, so its owner sees
      // why at a glance (the agent's publish panel lists the refused site too).
      const reason = error.message || 'This site may not embed this agent.';
      console.warn(`Agentloom widget: ${reason}`);
      addNotice(reason);
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

  function addNotice(reason) {
    const host = document.createElement('div');
    host.setAttribute('data-agentloom-widget', agentId);
    const shadow = host.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = `
      .notice { position: fixed; right: 20px; bottom: 20px; max-width: min(320px, calc(100vw - 40px));
        padding: 12px 14px; border: 1px solid #f59e0b; border-radius: 10px; background: #fffbeb;
        color: #78350f; font: 14px/1.4 system-ui, sans-serif; box-shadow: 0 4px 14px rgba(0,0,0,.15);
        z-index: 2147483646; }
      .notice strong { display: block; margin-bottom: 4px; }
      .notice button { margin-top: 8px; border: 0; background: none; color: inherit;
        text-decoration: underline; cursor: pointer; padding: 0; font: inherit; }`;
    const notice = document.createElement('div');
    notice.className = 'notice';
    notice.setAttribute('role', 'status');
    const title = document.createElement('strong');
    title.textContent = 'Chat unavailable on this site';
    const text = document.createElement('span');
    text.textContent = `${reason} Site to allow: ${location.origin}`;
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
