import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { diskStorage } from 'multer';
import { PrincipalCache } from '../auth/principal-cache';
import { APP_CONFIG, AppConfig } from '../config/env';
import { dataDirs } from '../files/data-dirs';
import { AvatarStorage } from './avatar-storage';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [
    MulterModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        const incoming = dataDirs(config).incoming;
        mkdirSync(incoming, { recursive: true });
        return {
          // Streamed to disk under a server-made name: the client's file name never touches the
          // file system, and nothing is held whole in memory.
          storage: diskStorage({
            destination: incoming,
            filename: (_request, _file, done) => done(null, randomUUID()),
          }),
          limits: { fields: 20, fieldSize: 16 * 1024, parts: 30 },
        };
      },
    }),
  ],
  controllers: [UsersController],
  providers: [UsersRepository, UsersService, AvatarStorage, PrincipalCache],
  exports: [UsersRepository, PrincipalCache],
})
export class UsersModule {}
