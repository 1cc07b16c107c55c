import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HERO_PHRASES, HERO_ROTATION_MS } from './content';
import { Hero } from './hero';

describe('Hero (SPEC §1/§4: the phrase rotates every 3 s through five phrases)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

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
    // The visible phrase carries the test id (all five share one grid cell).
    const phrase = {
      get current() {
        return screen.getByTestId('hero-phrase');
      },
    };
    expect(phrase.current).toHaveTextContent('RAG Agents');
    act(() => {
      vi.advanceTimersByTime(2999);
    });
    expect(phrase.current).toHaveTextContent('RAG Agents');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(phrase.current).toHaveTextContent('SQL Agents');
    for (const next of ['No-Code AI', 'Image Gen Agents', 'Smart Agents', 'RAG Agents']) {
      act(() => {
        vi.advanceTimersByTime(3000);
      });
      expect(phrase.current).toHaveTextContent(next);
    }
  });

  it('calls the handler it was given for Get Started', () => {
    const onGetStarted = vi.fn();
    render(<Hero onGetStarted={onGetStarted} />);
    fireEvent.click(screen.getByRole('button', { name: /Get Started/ }));
    expect(onGetStarted).toHaveBeenCalledOnce();
  });
});
