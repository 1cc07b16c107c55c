import {
  TLoginResponse,
  TMessageResponse,
  TSignupResponse,
  ZForgotPasswordQuery,
  ZLoginRequest,
  ZLoginResponse,
  ZMessageResponse,
  ZResetPasswordRequest,
  ZSignupRequest,
  ZSignupResponse,
} from '@agentloom/contracts';
import { Body, Controller, HttpCode, HttpStatus, Post, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { createZodDto } from 'nestjs-zod';
import { Public } from '../common/public.decorator';
import { AuthService } from './auth.service';

class SignupDto extends createZodDto(ZSignupRequest) {}
class SignupResponseDto extends createZodDto(ZSignupResponse) {}
class LoginDto extends createZodDto(ZLoginRequest) {}
class LoginResponseDto extends createZodDto(ZLoginResponse) {}
class ForgotPasswordQueryDto extends createZodDto(ZForgotPasswordQuery) {}
class ResetPasswordDto extends createZodDto(ZResetPasswordRequest) {}
class MessageDto extends createZodDto(ZMessageResponse) {}

export const RESET_EMAIL_SENT =
  'If an account exists for this email, we have sent a link to reset its password.';

/**
 * Accounts. Paths are SPEC §7's: most live under /auth, while reset and one of the two
 * forgot-password entries (the product calls both) are un-prefixed.
 */
@ApiTags('auth')
@Public()
@Controller()
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('auth/signup')
  @ApiOkResponse({ type: SignupResponseDto })
  async signup(@Body() body: SignupDto): Promise<TSignupResponse> {
    const user = await this.auth.signup(body);
    return { message: 'Account created successfully', user };
  }

  @Post('auth/login')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: LoginResponseDto })
  login(@Body() body: LoginDto, @Req() request: Request): Promise<TLoginResponse> {
    return this.auth.login(body, request.ip ?? 'unknown');
  }

  @Post(['auth/forgot-password', 'forgot-password'])
  @HttpCode(HttpStatus.OK)
  @ApiQuery({ name: 'email', required: true })
  @ApiOkResponse({ type: MessageDto })
  async forgotPassword(
    @Query() query: ForgotPasswordQueryDto,
    @Req() request: Request,
  ): Promise<TMessageResponse> {
    await this.auth.requestPasswordReset(query.email, request.ip ?? 'unknown');
    return { message: RESET_EMAIL_SENT };
  }

  @Post('reset-password')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: MessageDto })
  async resetPassword(
    @Body() body: ResetPasswordDto,
    @Req() request: Request,
  ): Promise<TMessageResponse> {
    await this.auth.resetPassword(body, request.ip ?? 'unknown');
    return { message: 'Your password has been reset. You can now log in.' };
  }
}
