import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HERO_PHRASES, HERO_ROTATION_MS } from './content';
import { Hero } from './hero';

/** The visible phrase carries the test id (all five share one grid cell). */
const currentPhrase = () => screen.getByTestId('hero-phrase');

function advance(ms: number) {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}

/** A matchMedia whose '(prefers-reduced-motion: reduce)' answer the test sets and changes. */
function stubReducedMotion(initially: boolean) {
  let reduce = initially;
  const listeners = new Set<() => void>();
  vi.stubGlobal('matchMedia', (query: string) => ({
    media: query,
    get matches() {
      return query === '(prefers-reduced-motion: reduce)' && reduce;
    },
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  }));
  return {
    change(next: boolean) {
      reduce = next;
      act(() => listeners.forEach((listener) => listener()));
    },
  };
}

describe('Hero (the phrase rotates every 3 s through five phrases)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('rotates every 3000 ms and wraps around', () => {
    expect(HERO_ROTATION_MS).toBe(3000);
    expect(HERO_PHRASES).toEqual([
      'RAG Agents',
      'SQL Agents',
      'No-Code AI',
      'Image Gen Agents',
      'Smart Agents',
    ]);
    render(<Hero onGetStarted={() => {}} />);
    expect(currentPhrase()).toHaveTextContent('RAG Agents');
    advance(2999);
    expect(currentPhrase()).toHaveTextContent('RAG Agents');
    advance(1);
    expect(currentPhrase()).toHaveTextContent('SQL Agents');
    for (const next of ['No-Code AI', 'Image Gen Agents', 'Smart Agents', 'RAG Agents']) {
      advance(3000);
      expect(currentPhrase()).toHaveTextContent(next);
    }
  });

  it('the Pause animation button stops the rotation and Play animation resumes it', () => {
    render(<Hero onGetStarted={() => {}} />);
    advance(3000);
    expect(currentPhrase()).toHaveTextContent('SQL Agents');

    fireEvent.click(screen.getByRole('button', { name: 'Pause animation' }));
    advance(30_000);
    expect(currentPhrase()).toHaveTextContent('SQL Agents');

    fireEvent.click(screen.getByRole('button', { name: 'Play animation' }));
    expect(screen.getByRole('button', { name: 'Pause animation' })).toBeInTheDocument();
    advance(2999);
    expect(currentPhrase()).toHaveTextContent('SQL Agents');
    advance(1);
    expect(currentPhrase()).toHaveTextContent('No-Code AI');
  });

  it('does not rotate when the user prefers reduced motion, unless they press Play', () => {
    stubReducedMotion(true);
    render(<Hero onGetStarted={() => {}} />);
    advance(30_000);
    expect(currentPhrase()).toHaveTextContent('RAG Agents');

    // Their explicit choice wins over the system setting.
    fireEvent.click(screen.getByRole('button', { name: 'Play animation' }));
    advance(3000);
    expect(currentPhrase()).toHaveTextContent('SQL Agents');
  });

  it('stops rotating as soon as reduced motion is switched on while the page is open', () => {
    const media = stubReducedMotion(false);
    render(<Hero onGetStarted={() => {}} />);
    advance(3000);
    expect(currentPhrase()).toHaveTextContent('SQL Agents');
    media.change(true);
    expect(screen.getByRole('button', { name: 'Play animation' })).toBeInTheDocument();
    advance(30_000);
    expect(currentPhrase()).toHaveTextContent('SQL Agents');
  });

  it('calls the handler it was given for Get Started', () => {
    const onGetStarted = vi.fn();
    render(<Hero onGetStarted={onGetStarted} />);
    fireEvent.click(screen.getByRole('button', { name: /Get Started/ }));
    expect(onGetStarted).toHaveBeenCalledOnce();
  });
});
