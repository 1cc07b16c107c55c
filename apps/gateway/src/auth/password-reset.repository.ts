import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service';

/** The only code that touches password_reset_tokens. Tokens are stored as SHA-256 hashes. */
@Injectable()
export class PasswordResetRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Issues a new token for the user and voids every earlier one, in one transaction. */
  async replaceToken(userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.prisma.client.$transaction([
      this.prisma.client.passwordResetToken.deleteMany({ where: { userId } }),
      this.prisma.client.passwordResetToken.create({ data: { userId, tokenHash, expiresAt } }),
    ]);
  }

  /**
   * Spends a token and sets the new password hash atomically. The conditional update is the
   * single-use guard: of two concurrent requests with one token, only one sees count = 1.
   * Returns the user's id, or null when the token is unknown, used or expired — nothing is
   * changed then.
   */
  async consumeAndSetPassword(
    tokenHash: string,
    passwordHash: string,
    now: Date,
  ): Promise<string | null> {
    return this.prisma.client.$transaction(async (tx) => {
      const token = await tx.passwordResetToken.findUnique({ where: { tokenHash } });
      if (!token) return null;
      const spent = await tx.passwordResetToken.updateMany({
        where: { id: token.id, usedAt: null, expiresAt: { gt: now } },
        data: { usedAt: now },
      });
      if (spent.count !== 1) return null;
      await tx.user.update({
        where: { id: token.userId },
        data: { passwordHash, passwordChangedAt: now },
      });
      await tx.passwordResetToken.deleteMany({
        where: { userId: token.userId, id: { not: token.id } },
      });
      return token.userId;
    });
  }
}
