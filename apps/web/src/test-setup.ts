import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  // servers/ tests run in Node, without a DOM.
  if (typeof localStorage !== 'undefined') localStorage.clear();
});
