import { Injectable } from '@nestjs/common';
import argon2 from 'argon2';

/**
 * argon2id with OWASP's recommended floor (19 MiB, 2 iterations, 1 lane). The PHC string it
 * returns carries its own parameters, so raising them later keeps old hashes verifiable.
 */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

@Injectable()
export class PasswordHasher {
  /** Verified against when the e-mail is unknown, so both answers take the same time. */
  private readonly decoy = argon2.hash('agentloom-decoy-password', OPTIONS);

  hash(password: string): Promise<string> {
    return argon2.hash(password, OPTIONS);
  }

  async verify(hash: string | null, password: string): Promise<boolean> {
    try {
      const ok = await argon2.verify(hash ?? (await this.decoy), password);
      return hash !== null && ok;
    } catch {
      return false;
    }
  }
}
