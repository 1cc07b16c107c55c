import { LLM_PROVIDER_CATALOG } from '@agentloom/contracts';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from './env';
import { providerBaseUrls } from './provider-base-urls';

const ROOT = path.resolve(__dirname, '../../../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** The `environment:` keys docker-compose.yml passes to one service. */
function composeEnvironment(service: string): string[] {
  const block = read('docker-compose.yml').split(new RegExp(`^  ${service}:$`, 'm'))[1] ?? '';
  const own = block.split(/^ {2}\S/m)[0] ?? '';
  return [...own.matchAll(/^ {6}([A-Z][A-Z0-9_]*):/gm)].map((match) => match[1] ?? '');
}

// The provider catalogue names each base-URL setting; the files operators read are held to it.
describe.each(Object.entries(LLM_PROVIDER_CATALOG))('the %s base-URL setting', (provider, spec) => {
  it('is read by the gateway and handed to the agent runtime', () => {
    const settings = {
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'gw-provider-')),
      [spec.baseUrlEnv]: 'http://127.0.0.1:9/v1',
    };
    const config = loadConfig(settings, () => undefined);
    expect(providerBaseUrls(config)).toMatchObject({ [provider]: 'http://127.0.0.1:9/v1' });
  });

  it('is shown in .env.example with the provider’s default address', () => {
    expect(read('.env.example')).toContain(`# ${spec.baseUrlEnv}=${spec.defaultBaseUrl}\n`);
  });

  it('is passed by docker-compose.yml to the gateway and the agent runtime', () => {
    expect(composeEnvironment('gateway')).toContain(spec.baseUrlEnv);
    expect(composeEnvironment('agent-runtime')).toContain(spec.baseUrlEnv);
  });
});
