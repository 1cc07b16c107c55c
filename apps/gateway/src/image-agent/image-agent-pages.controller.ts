import {
  ZImageRequest,
  type TImageAgentKey,
  type TImageRequest,
  type TImageResult,
} from '@agentloom/contracts';
import {
  BadRequestException,
  Body,
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../common/public.decorator';
import { SingleFileUpload } from '../files/single-file-upload.interceptor';
import { IMAGE_MAX_BYTES, ImageAgentService } from './image-agent.service';
import { PreviewGrantStore } from '../previews/preview-grants';

/**
 * The calls the image agent's page (`/p/{token}/`, preview-assets/image.js) makes. Like every
 * preview call, the token in the path is the access, checked on each call.
 */
@Public()
@ApiExcludeController()
@Controller('p/:token')
export class ImageAgentPagesController {
  constructor(
    private readonly grants: PreviewGrantStore,
    private readonly images: ImageAgentService,
  ) {}

  @Get('keys')
  async geminiKeys(@Param('token') token: string): Promise<TImageAgentKey[]> {
    const grant = await this.grants.require(token, ['image']);
    return this.images.geminiKeys(grant.userId);
  }

  /** Generate an image from a description, or edit the uploaded one. */
  @Post('images')
  @HttpCode(HttpStatus.OK)
  @UseInterceptors(SingleFileUpload('image', IMAGE_MAX_BYTES, 'The image'))
  async generate(
    @Param('token') token: string,
    @Body() body: unknown,
    @UploadedFile() upload?: Express.Multer.File,
  ): Promise<TImageResult> {
    const grant = await this.grants.require(token, ['image']);
    return this.images.generate(grant.userId, parseImageRequest(body), upload);
  }
}

/** The form's fields, refused in the page's own words (no field prefix: the page shows one box). */
function parseImageRequest(body: unknown): TImageRequest {
  const parsed = ZImageRequest.safeParse(body ?? {});
  if (!parsed.success) throw new BadRequestException(parsed.error.issues[0]?.message);
  return parsed.data;
}
