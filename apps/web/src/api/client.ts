/** The gateway's base URL; set VITE_API_URL at build time when the API lives elsewhere. */
export const API_URL: string = import.meta.env.VITE_API_URL ?? 'http://localhost:8000';
