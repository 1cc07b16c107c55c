import { PROFILE_PICTURE_MAX_BYTES, TUserProfile } from '@agentloom/contracts';
import {
  Body,
  Controller,
  Get,
  NotFoundException,
  Param,
  Put,
  StreamableFile,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { UpdateProfileDto, UserProfileDto } from '../common/api-dtos';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser } from '../common/current-user.decorator';
import { SingleFileUpload } from '../files/single-file-upload.interceptor';
import { Public } from '../common/public.decorator';
import { AvatarStorage } from './avatar-storage';
import { toProfile, UsersService } from './users.service';

@ApiTags('users')
@Controller('users')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly avatars: AvatarStorage,
  ) {}

  @Get('me')
  @ApiBearerAuth()
  @ApiOkResponse({ type: UserProfileDto })
  me(@CurrentUser() user: AuthenticatedUser): TUserProfile {
    return toProfile(user);
  }

  @Put('me')
  @ApiBearerAuth()
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      properties: {
        full_name: { type: 'string' },
        phone_number: { type: 'string' },
        bio: { type: 'string' },
        file: {
          type: 'string',
          format: 'binary',
          description: 'PNG, JPEG, WebP or GIF, up to 5 MB',
        },
      },
    },
  })
  @ApiOkResponse({ type: UserProfileDto })
  @UseInterceptors(SingleFileUpload('file', PROFILE_PICTURE_MAX_BYTES, 'The profile picture'))
  update(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: UpdateProfileDto,
    @UploadedFile() file?: Express.Multer.File,
  ): Promise<TUserProfile> {
    return this.users.updateProfile(user, body, file?.path);
  }

  /** Public so an <img> can show it; names are random UUIDs and change on every upload. */
  @Public()
  @Get('avatars/:name')
  async avatar(@Param('name') name: string): Promise<StreamableFile> {
    const picture = await this.avatars.open(name);
    if (!picture) throw new NotFoundException('Picture not found.');
    return new StreamableFile(picture.stream, {
      type: picture.mime,
      length: picture.size,
      disposition: 'inline',
    });
  }
}
