import { THealth } from '@agentloom/contracts';
import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { HealthDto } from '../common/api-dtos';
import { Public } from '../common/public.decorator';
import { HealthService } from './health.service';

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly service: HealthService) {}

  /**
   * Readiness: each dependency `up`, `slow` or `down`, checked live within HEALTH_TIMEOUT_MS.
   * 200 while nothing is down (slow still serves), 503 with the same body shape otherwise.
   */
  @Get()
  @ApiOkResponse({ type: HealthDto })
  async health(@Res({ passthrough: true }) response: Response): Promise<THealth> {
    const { ready, health } = await this.service.check();
    response.status(ready ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE);
    return health;
  }

  /** Liveness: the process serves HTTP. Touches nothing else (container healthchecks use it). */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
