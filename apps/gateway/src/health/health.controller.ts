import { THealth, ZHealth } from '@agentloom/contracts';
import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { createZodDto } from 'nestjs-zod';
import { Public } from '../common/public.decorator';
import { PrismaService } from '../prisma/prisma.service';
import { RedisService } from '../redis/redis.service';

class HealthDto extends createZodDto(ZHealth) {}

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly prisma: PrismaService,
    private readonly redis: RedisService,
  ) {}

  /** Readiness: 200 when Postgres and Redis answer, 503 (same body shape) when either does not. */
  @Get()
  @ApiOkResponse({ type: HealthDto })
  async health(@Res({ passthrough: true }) response: Response): Promise<THealth> {
    const [database, redis] = await Promise.all([
      this.prisma.isReachable(),
      this.redis.isReachable(),
    ]);
    const ok = database && redis;
    response.status(ok ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE);
    return {
      status: ok ? 'ok' : 'degraded',
      database: database ? 'up' : 'down',
      redis: redis ? 'up' : 'down',
    };
  }

  /** Liveness: the process serves HTTP. Touches nothing else (container healthchecks use it). */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
