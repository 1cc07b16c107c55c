/**
 * The dashboard's views (docs/product.md#the-dashboard), named in the query (`?view=agents`): a
 * leaf module, so the page and the views it shows can all read it.
 */
export const DASHBOARD_VIEWS = ['overview', 'profile', 'agents', 'keys'] as const;
export type DashboardView = (typeof DASHBOARD_VIEWS)[number];

export const isDashboardView = (value: string | null): value is DashboardView =>
  (DASHBOARD_VIEWS as readonly (string | null)[]).includes(value);
