// The embed script of a published agent's chat widget:
//   <script src="https://AGENTLOOM/w/widget.js" data-agent="AGENT_ID" async></script>
// It asks the platform whether this site may embed the agent (only the owner's allowed sites get
// an answer), then adds a chat bubble that opens the agent's chat in a frame. No key is in the
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
      // A site that is not allowed gets no bubble; its developer sees why in the console.
      console.warn(`Agentloom widget: ${error.message || 'this site may not embed this agent.'}`);
    });

  function addBubble(agent) {
    const host = document.createElement('div');
    host.setAttribute('data-agentloom-widget', agentId);
    const shadow = host.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = `
      .bubble { position: fixed; right: 20px; bottom: 20px; width: 56px; height: 56px;
        border-radius: 50%; border: 0; background: #4f46e5; color: #fff; font-size: 26px;
        cursor: pointer; box-shadow: 0 4px 14px rgba(0,0,0,.25); z-index: 2147483646; }
      .panel { position: fixed; right: 20px; bottom: 88px; width: min(380px, calc(100vw - 40px));
        height: min(560px, calc(100vh - 120px)); border: 1px solid #d4d4d8; border-radius: 12px;
        background: #fff; box-shadow: 0 8px 30px rgba(0,0,0,.2); z-index: 2147483646; }
      .panel[hidden] { display: none; }
      iframe { width: 100%; height: 100%; border: 0; border-radius: 12px; }`;
    const bubble = document.createElement('button');
    bubble.className = 'bubble';
    bubble.type = 'button';
    bubble.textContent = '💬';
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
