import { UnprocessableEntityException } from '@nestjs/common';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../config/env';
import { DataSourcesService } from './data-sources.service';

describe('DataSourcesService.sqliteFile (the SQLite files a preview may open)', () => {
  let work: string;
  let shared: string;
  let service: DataSourcesService;

  const serviceWith = (folder?: string) =>
    new DataSourcesService(
      loadConfig({ ...process.env, SQLITE_PREVIEW_DIR: folder ?? '' }, () => undefined),
    );

  /** The detail of the 422 the call fails with. */
  async function refusal(uri: string, on = service): Promise<string> {
    const error: unknown = await on.sqliteFile(uri).then(
      () => new Error(`${uri} was allowed`),
      (thrown: unknown) => thrown,
    );
    if (!(error instanceof UnprocessableEntityException)) throw error;
    return error.message;
  }

  beforeAll(async () => {
    work = await realpath(await mkdtemp(path.join(tmpdir(), 'sqlite-previews-')));
    shared = path.join(work, 'shared');
    await mkdir(path.join(shared, 'team'), { recursive: true });
    await writeFile(path.join(shared, 'sales.db'), 'db');
    await writeFile(path.join(shared, 'team', 'crm.db'), 'db');
    await writeFile(path.join(work, 'private.db'), 'secret');
    await symlink(path.join(work, 'private.db'), path.join(shared, 'escape.db'));
    await symlink(path.join(shared, 'sales.db'), path.join(shared, 'alias.db'));
    service = serviceWith(shared);
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  it('opens files inside the shared folder, by relative or absolute path', async () => {
    expect(await service.sqliteFile('sqlite:///sales.db')).toBe(path.join(shared, 'sales.db'));
    expect(await service.sqliteFile('sqlite:///team/crm.db')).toBe(
      path.join(shared, 'team', 'crm.db'),
    );
    expect(await service.sqliteFile(`sqlite:///${path.join(shared, 'sales.db')}`)).toBe(
      path.join(shared, 'sales.db'),
    );
    // A link that stays inside is followed.
    expect(await service.sqliteFile('sqlite:///alias.db')).toBe(path.join(shared, 'sales.db'));
  });

  it('refuses paths and links that lead out of it, without saying whether they exist', async () => {
    for (const uri of [
      'sqlite:///../private.db',
      `sqlite:///${path.join(work, 'private.db')}`,
      'sqlite:////etc/passwd',
      'sqlite:////etc/no-such-file.db',
      'sqlite:///team/../../private.db',
      'sqlite:///escape.db',
    ]) {
      expect(await refusal(uri)).toMatch(/is outside the folder this server shares for previews/);
    }
  });

  it('names a missing file, and a folder is not a file', async () => {
    expect(await refusal('sqlite:///missing.db')).toBe(
      'The SQLite file missing.db was not found in the folder this server shares for previews.',
    );
    expect(await refusal('sqlite:///team')).toMatch(/team was not found/);
  });

  it('refuses every SQLite preview when no folder is shared', async () => {
    expect(await refusal('sqlite:///sales.db', serviceWith(undefined))).toBe(
      'SQLite agents cannot be previewed on this server: the database file lives where the agent runs. Download the agent to try it.',
    );
  });
});
