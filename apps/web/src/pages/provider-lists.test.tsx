import { llmProviderLabelList } from '@agentloom/contracts';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { FEATURES } from '../components/landing/content';
import { DocsPage } from './docs-page';

// The public pages keep their sentences as literals (importing the contracts there would load
// them, and zod, on the landing page); these checks fail when a provider is added to the
// catalogue and the sentences still name the old set.
describe('the public pages name every LLM provider of the catalogue', () => {
  it('in the landing page’s key vault feature', () => {
    const vault = FEATURES.find((feature) => feature.title === 'API Key Vault');
    expect(vault?.summary).toContain(`Store your ${llmProviderLabelList('and')} keys once`);
  });

  it('in the documentation’s getting started steps', () => {
    render(
      <MemoryRouter>
        <DocsPage />
      </MemoryRouter>,
    );
    const step = `store a key for the LLM provider you plan to use (${llmProviderLabelList('or')}).`;
    expect(screen.getByText(step, { exact: false })).toBeInTheDocument();
  });
});
