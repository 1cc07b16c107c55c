import { TSourceTables, WIZARD_ROUTES } from '@agentloom/contracts';
import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SourceTablesDto, SourceTablesRequestDto } from '../common/api-dtos';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser } from '../common/current-user.decorator';
import { SourceTablesService } from './source-tables.service';

@ApiTags('wizard')
@ApiBearerAuth()
@Controller()
export class SourceTablesController {
  constructor(private readonly tables: SourceTablesService) {}

  /** A POST although it changes nothing: the URI carries a password, which has no place in a query string. */
  @Post(WIZARD_ROUTES.sourceTables)
  @HttpCode(200)
  @ApiOperation({ summary: 'The tables (or collections) of a database, to pick the source from' })
  @ApiOkResponse({ type: SourceTablesDto })
  list(
    @CurrentUser() user: AuthenticatedUser,
    @Param('sessionId') sessionId: string,
    @Body() body: SourceTablesRequestDto,
  ): Promise<TSourceTables> {
    return this.tables.list(user.id, sessionId, body);
  }
}
