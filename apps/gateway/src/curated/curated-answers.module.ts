import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { PipelinesModule } from '../pipelines/pipelines.module';
import { CuratedAnswersController } from './curated-answers.controller';
import { CuratedAnswersRepository } from './curated-answers.repository';
import { CuratedAnswersService } from './curated-answers.service';

/** The owner's curated answers (docs/curated-answers.md); the agents serve them (CuratedMatcher). */
@Module({
  imports: [PipelinesModule, AgentsModule],
  controllers: [CuratedAnswersController],
  providers: [CuratedAnswersService, CuratedAnswersRepository],
})
export class CuratedAnswersModule {}
