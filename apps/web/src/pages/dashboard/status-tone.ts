import type { BadgeTone } from '../../components/ui';

/** SPEC §4: Built green, Building yellow, Failed red, anything else grey. */
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
