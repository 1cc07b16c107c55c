import { TLoginResponse, TMessageResponse, TSignupResponse } from '@agentloom/contracts';
import { Body, Controller, HttpCode, HttpStatus, Post, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import {
  ForgotPasswordQueryDto,
  LoginDto,
  LoginResponseDto,
  MessageDto,
  ResetPasswordDto,
  SignupDto,
  SignupResponseDto,
} from '../common/api-dtos';
import { Public } from '../common/public.decorator';
import { AuthService } from './auth.service';

export const RESET_EMAIL_SENT =
  'If an account exists for this email, we have sent a link to reset its password.';

/**
 * Accounts. Paths are the product's (docs/product.md#the-calls-behind-the-screens): most live under
 * /auth, while reset and one of the two forgot-password entries (the product calls both) are
 * un-prefixed.
 */
@ApiTags('auth')
@Public()
@Controller()
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('auth/signup')
  @ApiOkResponse({ type: SignupResponseDto })
  async signup(@Body() body: SignupDto, @Req() request: Request): Promise<TSignupResponse> {
    const user = await this.auth.signup(body, request.ip ?? 'unknown');
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
