import type { TBuildCuratedAnswer } from '@agentloom/contracts';
import type { PrismaClient } from '@prisma/client';

/**
 * The agent's curated answers as a build captures them (its snapshot's `curated_answers`),
 * oldest first: what the downloaded project answers with, so a build's zip is the same whenever
 * it is made, whatever the owner writes after the build started.
 */
export async function curatedAnswersForBuild(
  client: Pick<PrismaClient, 'curatedAnswer'>,
  pipelineId: string,
): Promise<TBuildCuratedAnswer[]> {
  return client.curatedAnswer.findMany({
    where: { pipelineId },
    select: { id: true, question: true, answer: true },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}
