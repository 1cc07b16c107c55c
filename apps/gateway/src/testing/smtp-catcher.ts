import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

/** A real SMTP server on a free local port that keeps what it receives, parsed. */
export class SmtpCatcher {
  readonly messages: Email[] = [];
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, _session, done) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        PostalMime.parse(Buffer.concat(chunks))
          .then((email) => {
            this.messages.push(email);
            done();
          })
          .catch(done);
      });
    },
  });

  async start(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.server.address() as AddressInfo).port;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Waits for a message to `to` (polling; the gateway sends in the background). */
  waitFor(to: string, timeoutMs = 5_000): Promise<Email> {
    return this.waitForMessage(to, 0, timeoutMs);
  }

  /** Waits until `to` has received message number `index` (0-based) and returns it. */
  async waitForMessage(to: string, index: number, timeoutMs = 5_000): Promise<Email> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messagesFor(to)[index];
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`No e-mail #${index + 1} reached ${to} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  countFor(to: string): number {
    return this.messagesFor(to).length;
  }

  private messagesFor(to: string): Email[] {
    return this.messages.filter((m) => m.to?.some((a) => a.address === to));
  }
}
