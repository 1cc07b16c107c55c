// Shared by the preview pages (chat and image agent): the page's configuration, the base of its
// calls, the light/dark theme and a small DOM helper. Loaded before the page's own script.
'use strict';

window.AgentloomPreview = (function () {
  const config = JSON.parse(document.getElementById('preview-config').textContent);
  // Calls are relative to the page's own link, /p/{token}/.
  const base = location.pathname.endsWith('/') ? location.pathname : `${location.pathname}/`;
  const workspace = document.getElementById('workspace');
  const notice = document.getElementById('notice');

  function showNotice(message) {
    notice.textContent = message;
    notice.hidden = false;
  }

  function formatBytes(bytes) {
    if (bytes < 1024) return `${bytes} B`;
    if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
    return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  }

  function element(tag, properties = {}) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(properties)) {
      if (name.includes('-') || name === 'role') node.setAttribute(name, String(value));
      else node[name] = value;
    }
    return node;
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
  setUpTheme();
  return { config, base, workspace, element, showNotice, formatBytes };
})();
