import {
  BUILD_EVENTS,
  BUILDS_NAMESPACE,
  TBuildSnapshot,
  TBuildSubscribeAck,
  ZBuildSubscribe,
} from '@agentloom/contracts';
import { HttpException } from '@nestjs/common';
import {
  ConnectedSocket,
  MessageBody,
  OnGatewayInit,
  SubscribeMessage,
  WebSocketGateway,
} from '@nestjs/websockets';
import type { Namespace, Socket } from 'socket.io';
import { AccessTokenVerifier } from '../auth/access-token.verifier';
import { PipelinesService } from '../pipelines/pipelines.service';
import { BuildEventsRelay, pipelineRoom } from './build-events.relay';
import { type BuildSocketState, SESSION_ENDED, stillSignedIn } from './build-sockets';
import { BuildsRepository } from './builds.repository';
import { toView } from './builds.service';

/**
 * Live build progress (namespace /builds). The handshake must carry a valid access token
 * (`auth: { token }`), otherwise the client gets `connect_error`. `subscribe` checks that the
 * pipeline is the caller's, joins its room, then sends the current state — so a client that
 * arrives late or reconnects after the build ended still sees the truth — and from then on
 * the relay pushes every stage and the end. The token is checked again on every subscribe and
 * before every event (build-sockets.ts): a socket opened before a password reset is disconnected
 * instead of listening on with a token HTTP already refuses.
 */
@WebSocketGateway({ namespace: BUILDS_NAMESPACE })
export class BuildEventsGateway implements OnGatewayInit<Namespace> {
  constructor(
    private readonly tokens: AccessTokenVerifier,
    private readonly pipelines: PipelinesService,
    private readonly builds: BuildsRepository,
    private readonly relay: BuildEventsRelay,
  ) {}

  afterInit(namespace: Namespace): void {
    this.relay.attach(namespace);
    namespace.use((socket, next) => {
      const auth = socket.handshake.auth as { token?: unknown } | undefined;
      this.tokens.verify(auth?.token).then(
        (user) => {
          if (!user) return next(new Error('Unauthorized: sign in again.'));
          const state = socket.data as BuildSocketState;
          state.user = user;
          state.token = auth?.token as string;
          next();
        },
        () => next(new Error('Unauthorized: sign in again.')),
      );
    });
  }

  @SubscribeMessage(BUILD_EVENTS.subscribe)
  async subscribe(
    @ConnectedSocket() socket: Socket,
    @MessageBody() body: unknown,
  ): Promise<TBuildSubscribeAck> {
    if (!(await stillSignedIn(socket, this.tokens))) return { ok: false, detail: SESSION_ENDED };
    const user = (socket.data as BuildSocketState).user;
    const request = ZBuildSubscribe.safeParse(body);
    if (!user || !request.success)
      return { ok: false, detail: 'Send { sessionId } of one of your agents.' };
    try {
      const pipeline = await this.pipelines.findOwned(user.id, request.data.sessionId);
      await socket.join(pipelineRoom(pipeline.id));
      const build = await this.builds.latestOwned(pipeline.id, user.id);
      const snapshot: TBuildSnapshot = {
        session_id: pipeline.id,
        build: build ? toView(pipeline, build) : null,
      };
      socket.emit(BUILD_EVENTS.snapshot, snapshot);
      return { ok: true };
    } catch (error) {
      if (error instanceof HttpException) return { ok: false, detail: error.message };
      throw error;
    }
  }
}
