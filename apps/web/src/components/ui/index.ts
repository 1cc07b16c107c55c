/*
 * Shared UI primitives. Every colour pair here is chosen for WCAG AA contrast in both the light
 * and the dark theme; every control shows a visible focus ring for keyboard users.
 */
// The shared UI primitives, by kind; import them from here ('../components/ui').
export * from './button';
export * from './feedback';
export * from './fields';
export * from './layout';
export * from './copy-button';
