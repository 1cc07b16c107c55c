import { TUpdateProfileRequest, TUserProfile } from '@agentloom/contracts';
import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { PrincipalCache } from '../auth/principal-cache';
import { AvatarStorage, avatarUrl } from './avatar-storage';
import { ProfileChanges, UsersRepository } from './users.repository';

export function toProfile(user: AuthenticatedUser): TUserProfile {
  return {
    full_name: user.fullName,
    username: user.username,
    email: user.email,
    phone_number: user.phoneNumber,
    bio: user.bio,
    profile_picture_url: avatarUrl(user.profilePicture),
    created_at: user.createdAt.toISOString(),
  };
}

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly avatars: AvatarStorage,
    private readonly principals: PrincipalCache,
  ) {}

  /**
   * Applies the editable fields (only those sent) and, when a picture is uploaded, replaces
   * the old one. The new file is removed again if the database update fails.
   */
  async updateProfile(
    user: AuthenticatedUser,
    fields: TUpdateProfileRequest,
    uploadedPicturePath?: string,
  ): Promise<TUserProfile> {
    const changes: ProfileChanges = {};
    if (fields.full_name !== undefined) changes.fullName = fields.full_name;
    if (fields.phone_number !== undefined) changes.phoneNumber = fields.phone_number;
    if (fields.bio !== undefined) changes.bio = fields.bio;
    if (uploadedPicturePath) changes.profilePicture = await this.avatars.store(uploadedPicturePath);

    let updated: AuthenticatedUser;
    try {
      updated = await this.users.updateProfile(user.id, changes);
    } catch (error) {
      await this.avatars.remove(changes.profilePicture);
      throw error;
    }
    await this.principals.invalidate(user.id);
    if (changes.profilePicture) await this.avatars.remove(user.profilePicture);
    return toProfile(updated);
  }
}
