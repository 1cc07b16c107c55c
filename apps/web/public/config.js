/* global window */
// The runtime settings of a plain static copy of the bundle: the API on this origin. The servers
// Agentloom ships (vite preview under npm start, nginx in the image) answer /config.js
// themselves, from their API_URL setting (src/lib/api.ts).
window.agentloomConfig = { apiUrl: '' };
