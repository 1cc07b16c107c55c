/* global document */
// Apply the saved theme before the first paint, so dark mode never flashes light. A file rather
// than an inline script: the app's CSP allows scripts from its own origin only.
try {
  if (localStorage.getItem('theme') === 'dark') {
    document.documentElement.classList.add('dark');
    document.documentElement.style.colorScheme = 'dark';
  }
} catch {
  // Storage blocked (private mode, policies): the light theme stays.
}
