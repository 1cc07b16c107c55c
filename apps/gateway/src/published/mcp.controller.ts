import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpStatus,
  Param,
  Post,
  Req,
  Res,
} from '@nestjs/common';
import { ApiBearerAuth, ApiExcludeEndpoint, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../common/public.decorator';
import { McpAgentServers } from './mcp.service';
import { PublishedAgentsService } from './published-agents.service';

/**
 * `/agents/{id}/mcp`: the published agent as an MCP server (streamable HTTP transport, stateless:
 * every POST carries its own JSON-RPC message and is answered on its own). The bearer is one of
 * the agent's access keys, checked on every request exactly as for its chat API.
 */
@Public()
@ApiTags('published agents')
@ApiBearerAuth()
@Controller('agents')
export class McpController {
  constructor(
    private readonly agents: PublishedAgentsService,
    private readonly servers: McpAgentServers,
  ) {}

  @Post(':id/mcp')
  @ApiOperation({
    summary: 'The MCP server of a published agent (streamable HTTP)',
    description:
      'Point an MCP client at this URL with an access key of the agent as the bearer token. ' +
      'One tool asks the agent: `question` in (and `conversation_id` to follow up); the answer ' +
      'and its sources out, as text and as structured content. Every request counts toward the ' +
      "key's rate limit; 401 for a missing or revoked key, 404 for an agent that is not published.",
  })
  async handle(
    @Param('id') id: string,
    @Headers('authorization') authorization: string | undefined,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const { live, key } = await this.agents.authorize(authorization, id);
    const server = await this.servers.serverFor(live, key, response);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  }

  /**
   * No server-initiated stream and no session to end: a stateless server answers GET and DELETE
   * with 405, which MCP clients take as "no stream here".
   */
  @Get(':id/mcp')
  @ApiExcludeEndpoint()
  noStream(@Res() response: Response): void {
    methodNotAllowed(response);
  }

  @Delete(':id/mcp')
  @ApiExcludeEndpoint()
  noSession(@Res() response: Response): void {
    methodNotAllowed(response);
  }
}

function methodNotAllowed(response: Response): void {
  response
    .status(HttpStatus.METHOD_NOT_ALLOWED)
    .set('Allow', 'POST')
    .json({ detail: 'This MCP server is stateless: send each JSON-RPC message as a POST.' });
}
