import type { PrismaClient } from '@agentloom/db';
import { storeKeys } from '@agentloom/server-kit';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { readdir, rm, statfs, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seedRagBuild, testPrisma, testWorkerConfig } from '../testing/build-fixtures';
import { startWorkerHarness } from '../testing/worker-harness';
import { STORAGE_FULL } from './build.processor';

/**
 * A build whose disk fills up: DATA_DIR is a 4 MB tmpfs of the test's own (mounted here, needs
 * root), filled to a few kilobytes before the build writes its zip.
 */
describe('a full disk during a build', () => {
  const disk = mkdtempSync(path.join(tmpdir(), 'worker-disk-'));
  let prisma: PrismaClient;
  let harness: Awaited<ReturnType<typeof startWorkerHarness>>;

  beforeAll(async () => {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', disk]);
    const config = testWorkerConfig({ DATA_DIR: disk });
    prisma = testPrisma(config);
    harness = await startWorkerHarness(config);
  });
  afterAll(async () => {
    await harness?.close();
    await prisma?.$disconnect();
    execFileSync('umount', [disk]);
    await rm(disk, { recursive: true, force: true });
  });

  it('ends Failed with a reason, leaves no partial zip or work folder, and builds once space is back', async () => {
    const config = testWorkerConfig({ DATA_DIR: disk });
    const { pipelineId, buildId } = await seedRagBuild(prisma, config);
    const free = await statfs(disk);
    const filler = path.join(disk, 'filler');
    await writeFile(filler, Buffer.alloc(Math.max(0, free.bavail * free.bsize - 8_192)));

    await expect(harness.runBuild(buildId)).rejects.toThrow(STORAGE_FULL);
    const failed = await prisma.build.findUniqueOrThrow({ where: { id: buildId } });
    expect(failed).toMatchObject({ status: 'Failed', error: STORAGE_FULL, artifact: null });
    expect(await readdir(path.join(disk, storeKeys.artifacts(pipelineId))).catch(() => [])).toEqual(
      [],
    );
    expect(await readdir(path.join(disk, 'work')).catch(() => [])).toEqual([]);
    // No segment of the agent's index is left half-written.
    expect(
      await readdir(path.join(disk, storeKeys.hostedIndexes(pipelineId), 'segments')).catch(
        () => [],
      ),
    ).toEqual([]);

    await rm(filler);
    await (await harness.queue.getJob(buildId))?.remove();
    await prisma.build.update({
      where: { id: buildId },
      data: { status: 'Building', error: null },
    });
    await harness.runBuild(buildId);
    expect(await prisma.build.findUniqueOrThrow({ where: { id: buildId } })).toMatchObject({
      status: 'Built',
    });
    expect(await readdir(path.join(disk, storeKeys.artifacts(pipelineId)))).toEqual([
      storeKeys.artifactName(buildId),
    ]);
  });
});
