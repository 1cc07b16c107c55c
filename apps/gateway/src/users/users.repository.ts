import { Prisma, User } from '@agentloom/db';
import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { PrismaService } from '../prisma/prisma.service';

const WITHOUT_PASSWORD = {
  id: true,
  username: true,
  email: true,
  fullName: true,
  phoneNumber: true,
  bio: true,
  profilePicture: true,
  passwordChangedAt: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.UserSelect;

export type ProfileChanges = Partial<
  Pick<User, 'fullName' | 'phoneNumber' | 'bio' | 'profilePicture'>
>;

/** The only code that reads or writes the users table. */
@Injectable()
export class UsersRepository {
  constructor(private readonly prisma: PrismaService) {}

  findById(id: string): Promise<AuthenticatedUser | null> {
    return this.prisma.client.user.findUnique({ where: { id }, select: WITHOUT_PASSWORD });
  }

  findByEmailWithPassword(email: string): Promise<User | null> {
    return this.prisma.client.user.findUnique({ where: { email } });
  }

  async emailTaken(email: string): Promise<boolean> {
    return (await this.prisma.client.user.count({ where: { email } })) > 0;
  }

  /** Usernames are unique regardless of letter case ("Ada" and "ada" are the same person). */
  async usernameTaken(username: string): Promise<boolean> {
    const count = await this.prisma.client.user.count({
      where: { username: { equals: username, mode: 'insensitive' } },
    });
    return count > 0;
  }

  create(data: {
    username: string;
    email: string;
    passwordHash: string;
  }): Promise<AuthenticatedUser> {
    return this.prisma.client.user.create({ data, select: WITHOUT_PASSWORD });
  }

  updateProfile(id: string, changes: ProfileChanges): Promise<AuthenticatedUser> {
    return this.prisma.client.user.update({
      where: { id },
      data: changes,
      select: WITHOUT_PASSWORD,
    });
  }
}
