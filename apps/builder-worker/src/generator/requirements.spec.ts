import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LOCKS_DIR, closure, packageName, parseLock } from './lock-file';
import { UNIVERSES, universeInput, universeLock, universePins } from './requirements';

describe('the generated agents’ locks', () => {
  it.each(UNIVERSES)(
    '%s: the committed lock was resolved from today’s pins (else: npm run agents:lock)',
    (universe) => {
      const input = readFileSync(path.join(LOCKS_DIR, `${universe}.in`), 'utf8');
      expect(input).toBe(universeInput(universe));
      const lock = universeLock(universe);
      expect(lock.inputHash).toBe(createHash('sha256').update(input).digest('hex'));
      for (const pin of universePins(universe)) {
        expect(lock.packages.get(packageName(pin))?.entry.split(' ')[0]).toBe(pin.toLowerCase());
      }
    },
  );

  it('reads dependencies from uv’s annotations and closes over them', () => {
    const lock = parseLock(
      [
        '# input-sha256: ' + 'a'.repeat(64),
        'certifi==1 \\',
        '    --hash=sha256:' + '1'.repeat(64),
        '    # via',
        '    #   httpx',
        '    #   requests',
        'httpx==2 \\',
        '    --hash=sha256:' + '2'.repeat(64),
        '    # via -r main.in',
        'requests==3 \\',
        '    --hash=sha256:' + '3'.repeat(64),
        '    # via -r main.in',
        'Unused_Package==4 \\',
        '    --hash=sha256:' + '4'.repeat(64),
        '    # via -r main.in',
        '',
      ].join('\n'),
    );
    expect([...closure(lock, ['httpx'])].sort()).toEqual(['certifi', 'httpx']);
    expect(lock.packages.has('unused-package')).toBe(true);
    expect(() => closure(lock, ['numpy'])).toThrow(/agents:lock/);
  });
});
