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

@ApiTags('auth')
@Public()
@Controller('auth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('signup')
  @ApiOkResponse({ type: SignupResponseDto })
  async signup(@Body() body: SignupDto): Promise<TSignupResponse> {
    const user = await this.auth.signup(body);
    return { message: 'Account created successfully', user };
  }

  @Post('login')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: LoginResponseDto })
  login(@Body() body: LoginDto, @Req() request: Request): Promise<TLoginResponse> {
    return this.auth.login(body, request.ip ?? 'unknown');
  }

  @Post('forgot-password')
  @HttpCode(HttpStatus.OK)
  @ApiQuery({ name: 'email', required: true })
  @ApiOkResponse({ type: MessageDto })
  async forgotPassword(@Query() query: ForgotPasswordQueryDto): Promise<TMessageResponse> {
    await this.auth.requestPasswordReset(query.email);
    return { message: RESET_EMAIL_SENT };
  }
}

/** The un-prefixed paths of SPEC §7: a second forgot-password entry and the reset itself. */
@ApiTags('auth')
@Public()
@Controller()
export class PasswordController {
  constructor(private readonly auth: AuthService) {}

  @Post('forgot-password')
  @HttpCode(HttpStatus.OK)
  @ApiQuery({ name: 'email', required: true })
  @ApiOkResponse({ type: MessageDto })
  async forgotPassword(@Query() query: ForgotPasswordQueryDto): Promise<TMessageResponse> {
    await this.auth.requestPasswordReset(query.email);
    return { message: RESET_EMAIL_SENT };
  }

  @Post('reset-password')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: MessageDto })
  async resetPassword(@Body() body: ResetPasswordDto): Promise<TMessageResponse> {
    await this.auth.resetPassword(body);
    return { message: 'Your password has been reset. You can now log in.' };
  }
}
