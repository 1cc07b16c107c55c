import { Inject, Injectable, Logger } from '@nestjs/common';
import nodemailer, { Transporter } from 'nodemailer';
import { APP_CONFIG, AppConfig } from '../config/env';

@Injectable()
export class MailService {
  private readonly logger = new Logger(MailService.name);
  private readonly transport: Transporter;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.transport = nodemailer.createTransport({
      host: config.SMTP_HOST,
      port: config.SMTP_PORT,
      secure: config.SMTP_SECURE,
      auth: config.SMTP_USER ? { user: config.SMTP_USER, pass: config.SMTP_PASSWORD } : undefined,
      connectionTimeout: 10_000,
    });
  }

  async sendPasswordReset(to: string, link: string, validMinutes: number): Promise<void> {
    await this.transport.sendMail({
      from: this.config.MAIL_FROM,
      to,
      subject: 'Reset your Agentloom password',
      text: [
        'Someone asked to reset the password of your Agentloom account.',
        '',
        `Open this link to choose a new password (valid for ${validMinutes} minutes, usable once):`,
        link,
        '',
        'If it was not you, ignore this e-mail: your password stays as it is.',
      ].join('\n'),
      // Base64 keeps the link on one logical line (quoted-printable would fold it at 76 chars).
      textEncoding: 'base64',
    });
    this.logger.log(`Password reset e-mail sent to ${to.replace(/^(.).*@/, '$1***@')}`);
  }
}
