import { Module } from '@nestjs/common';
import { PrincipalCache } from '../auth/principal-cache';
import { incomingUploadsModule } from '../files/incoming-uploads.module';
import { AvatarStorage } from './avatar-storage';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [incomingUploadsModule({ fields: 20, fieldSize: 16 * 1024, parts: 30 })],
  controllers: [UsersController],
  providers: [UsersRepository, UsersService, AvatarStorage, PrincipalCache],
  exports: [UsersRepository, PrincipalCache],
})
export class UsersModule {}
