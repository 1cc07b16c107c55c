import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  Body,
  Controller,
  Delete,
  ForbiddenException,
  Get,
  Headers,
  HttpStatus,
  Inject,
  Param,
  Post,
  Req,
  Res,
} from '@nestjs/common';
import { ApiBearerAuth, ApiExcludeEndpoint, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../common/public.decorator';
import { APP_CONFIG, AppConfig } from '../config/env';
import { McpAgentServers } from './mcp.service';
import { PublishedAgentsService } from './published-agents.service';

export const FOREIGN_ORIGIN =
  'This web page is not allowed to call this MCP server. MCP clients outside a browser send no Origin header.';
export const BATCH_REFUSED =
  'JSON-RPC batches are not accepted (MCP dropped them in its 2025-06-18 revision): send one message per POST.';

/**
 * `/agents/{id}/mcp`: the published agent as an MCP server (streamable HTTP transport, stateless:
 * every POST carries its own JSON-RPC message and is answered on its own). The bearer is one of
 * the agent's access keys, checked on every request exactly as for its chat API.
 *
 * One message per POST is what makes the key's rate limit hold: the limit counts requests, and
 * a batch would let one request ask the agent a hundred questions on its owner's provider key.
 * A browser's request must come from Agentloom's own origins (CORS_ORIGINS): the MCP spec's rule
 * against DNS rebinding, where a page on another site reaches a server through its name.
 */
@Public()
@ApiTags('published agents')
@ApiBearerAuth()
@Controller('agents')
export class McpController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly agents: PublishedAgentsService,
    private readonly servers: McpAgentServers,
  ) {}

  @Post(':id/mcp')
  @ApiOperation({
    summary: 'The MCP server of a published agent (streamable HTTP)',
    description:
      'Point an MCP client at this URL with an access key of the agent as the bearer token. ' +
      'One tool asks the agent: `question` in (and `conversation_id` to follow up); the answer ' +
      'and its sources out, as text and as structured content. One JSON-RPC message per request ' +
      "(a batch is refused with 400), and every request counts toward the key's rate limit; 401 " +
      'for a missing or revoked key, 404 for an agent that is not published, 403 for a browser ' +
      "page on another site than Agentloom's.",
  })
  async handle(
    @Param('id') id: string,
    @Headers('authorization') authorization: string | undefined,
    @Headers('origin') origin: string | undefined,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    if (origin !== undefined && !this.config.CORS_ORIGINS.includes(origin)) {
      throw new ForbiddenException(FOREIGN_ORIGIN);
    }
    if (Array.isArray(body)) {
      response.status(HttpStatus.BAD_REQUEST).json({
        jsonrpc: '2.0',
        id: null,
        error: { code: INVALID_REQUEST, message: BATCH_REFUSED },
      });
      return;
    }
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

/** JSON-RPC's "Invalid Request" error code. */
const INVALID_REQUEST = -32600;

function methodNotAllowed(response: Response): void {
  response
    .status(HttpStatus.METHOD_NOT_ALLOWED)
    .set('Allow', 'POST')
    .json({ detail: 'This MCP server is stateless: send each JSON-RPC message as a POST.' });
}
