import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { PrincipalCache } from '../auth/principal-cache';
import { APP_CONFIG, AppConfig } from '../config/env';
import { incomingDiskStorage } from '../files/data-dirs';
import { AvatarStorage } from './avatar-storage';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [
    MulterModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        storage: incomingDiskStorage(config),
        limits: { fields: 20, fieldSize: 16 * 1024, parts: 30 },
      }),
    }),
  ],
  controllers: [UsersController],
  providers: [UsersRepository, UsersService, AvatarStorage, PrincipalCache],
  exports: [UsersRepository, PrincipalCache],
})
export class UsersModule {}
