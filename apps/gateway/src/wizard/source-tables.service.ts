import { isFileSourceType, TSourceTables, TSourceTablesRequest } from '@agentloom/contracts';
import { Injectable, UnprocessableEntityException } from '@nestjs/common';
import { PipelineSecrets } from '../pipelines/pipeline-secrets';
import { readConfig } from '../pipelines/pipeline-view';
import { PipelinesService } from '../pipelines/pipelines.service';
import { DataSourcesService } from '../sources/data-sources.service';

/**
 * The tables of the database a wizard is about to connect, so the person can pick one instead of
 * typing it. The URI goes through the same checks as connecting (form, SSRF rules, timeout).
 */
@Injectable()
export class SourceTablesService {
  constructor(
    private readonly pipelines: PipelinesService,
    private readonly secrets: PipelineSecrets,
    private readonly dataSources: DataSourcesService,
  ) {}

  async list(
    userId: string,
    sessionId: string,
    request: TSourceTablesRequest,
  ): Promise<TSourceTables> {
    const pipeline = await this.pipelines.findOwned(userId, sessionId);
    const config = readConfig(pipeline);
    const type = request.source_type ?? config.source_type;
    if (!type || isFileSourceType(type)) {
      throw new UnprocessableEntityException(
        'Choose MySQL, Postgres or SQLite as the source type before connecting a database.',
      );
    }
    if (pipeline.agentType === 'sql' && type === 'mongo') {
      throw new UnprocessableEntityException('SQL agents cannot use MongoDB as a source.');
    }
    const uri = this.secrets.connectionUri({
      owner: pipeline,
      saved: config.database,
      type,
      uri: request.uri,
    });
    return { tables: await this.dataSources.listTables(type, uri, request.database) };
  }
}
