import { describe, expect, it } from 'vitest';
import { apiUrl, framedGatewayPage } from './api';

describe('one origin', () => {
  it('calls the API on the page’s own origin: nothing about the API is compiled in', () => {
    expect(apiUrl('/auth/login')).toBe('/auth/login');
    expect(apiUrl('pipelines', { page: '2' })).toBe('/pipelines?page=2');
  });

  it('frames a /p/ page through the page’s own origin, whatever host its link names', () => {
    expect(framedGatewayPage('https://agents.example.com/p/abc/?theme=dark')).toBe(
      `${window.location.origin}/p/abc/?theme=dark`,
    );
    // Anything else (an image agent's own app, say) is left as it is.
    expect(framedGatewayPage('http://127.0.0.1:8501')).toBe('http://127.0.0.1:8501');
  });
});
