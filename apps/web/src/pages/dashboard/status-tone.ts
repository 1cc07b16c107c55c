import type { BadgeTone } from '../../components/ui';

/**
 * docs/product.md#the-dashboard-agents: Built green, Building yellow, Failed red, anything else
 * grey.
 */
export function statusTone(status: string): BadgeTone {
  switch (status) {
    case 'Built':
      return 'green';
    case 'Building':
      return 'yellow';
    case 'Failed':
      return 'red';
    default:
      return 'grey';
  }
}
