import { Inject, Injectable, Logger } from '@nestjs/common';
import nodemailer, { Transporter } from 'nodemailer';
import { APP_CONFIG, AppConfig } from '../config/env';

/** The last delivery's outcome, for /health: `unknown` until something was sent. */
export type MailState = 'up' | 'down' | 'unknown';

@Injectable()
export class MailService {
  private readonly logger = new Logger(MailService.name);
  private readonly transport: Transporter;
  private lastDelivery: MailState = 'unknown';

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.transport = nodemailer.createTransport({
      host: config.SMTP_HOST,
      port: config.SMTP_PORT,
      secure: config.SMTP_SECURE,
      auth: config.SMTP_USER ? { user: config.SMTP_USER, pass: config.SMTP_PASSWORD } : undefined,
      connectionTimeout: 10_000,
    });
  }

  /** Whether the last e-mail reached the SMTP server: the operator's signal on /health. */
  deliveryState(): MailState {
    return this.lastDelivery;
  }

  /**
   * Sends the reset e-mail. A failure is the operator's to fix (the log says which server and
   * why, /health says mail is down); the caller's answer never depends on it, so it is not thrown.
   */
  async sendPasswordReset(to: string, link: string, validMinutes: number): Promise<void> {
    const masked = to.replace(/^(.).*@/, '$1***@');
    try {
      await this.deliver(to, link, validMinutes);
    } catch (error) {
      this.lastDelivery = 'down';
      const server = `${this.config.SMTP_HOST}:${this.config.SMTP_PORT}`;
      this.logger.error(
        `Password reset e-mail to ${masked} not delivered: SMTP server ${server} failed (${(error as Error).message}). Check SMTP_HOST, SMTP_PORT and the mail server.`,
      );
      return;
    }
    this.lastDelivery = 'up';
    this.logger.log(`Password reset e-mail sent to ${masked}`);
  }

  private async deliver(to: string, link: string, validMinutes: number): Promise<void> {
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
  }
}
