import { useCallback, useEffect, useState } from 'react';
import { STORAGE_KEYS } from '../lib/storage';

export type Theme = 'light' | 'dark';

/** docs/product.md#stored-in-the-browser: the saved theme, light unless 'dark' was stored. */
export function readTheme(storage: Pick<Storage, 'getItem'>): Theme {
  try {
    return storage.getItem(STORAGE_KEYS.theme) === 'dark' ? 'dark' : 'light';
  } catch {
    return 'light'; // storage can throw when the browser blocks it
  }
}

/** Puts the theme on <html> (Tailwind's dark variant keys off class="dark") and saves it. */
export function applyTheme(theme: Theme, storage: Pick<Storage, 'setItem'>, root: HTMLElement) {
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
  try {
    storage.setItem(STORAGE_KEYS.theme, theme);
  } catch {
    // Not persisted, still applied.
  }
}

/** The theme on screen now (what the navbar's toggle last applied). */
export function currentTheme(): Theme {
  return document.documentElement.classList.contains('dark') ? 'dark' : 'light';
}

export function useTheme(): { theme: Theme; toggleTheme: () => void } {
  const [theme, setTheme] = useState<Theme>(() => readTheme(localStorage));
  useEffect(() => {
    applyTheme(theme, localStorage, document.documentElement);
  }, [theme]);
  const toggleTheme = useCallback(() => setTheme((t) => (t === 'dark' ? 'light' : 'dark')), []);
  return { theme, toggleTheme };
}
