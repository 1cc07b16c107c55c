import { readFileSync } from 'node:fs';
import path from 'node:path';
import { COMPOSE_VECTOR_STORE_URLS } from '@agentloom/contracts';
import { renderTemplate } from './templates';

describe('the wizard’s vector store defaults', () => {
  it('are the addresses the generated compose files give the stores', () => {
    for (const [store, url] of Object.entries(COMPOSE_VECTOR_STORE_URLS)) {
      const compose = readFileSync(
        path.resolve(__dirname, `../../templates/rag/compose/${store}.yml.tmpl`),
        'utf8',
      );
      expect(compose).toContain(`VECTOR_STORE_URL: ${url}\n`);
    }
  });
});

describe('renderTemplate', () => {
  it('fills placeholders in one pass', () => {
    expect(renderTemplate('a @@X@@ b @@Y@@', { X: '@@Y@@', Y: 2 })).toBe('a @@Y@@ b 2');
  });

  it('fails on a missing or an unused value', () => {
    expect(() => renderTemplate('@@X@@', {})).toThrow(/X/);
    expect(() => renderTemplate('none', { X: 1 })).toThrow(/Unused/);
  });
});
