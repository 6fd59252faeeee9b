/**
 * Profile photos: JPEG, PNG or WebP, told from the bytes themselves (file-type), never from what the
 * client says they are; at most 5 MiB. Kept in the database; the profile's `profile_photo_url` points at
 * the route that serves it.
 */
import { fileTypeFromBuffer } from 'file-type';
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { NotFoundError, ValidationError } from '../errors.js';

export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

export interface Photo {
  contentType: string;
  bytes: Buffer;
  updatedAt: Date;
}

export class ProfilePhotos {
  constructor(private readonly deps: { db: Knex; clock: Clock; photoUrl: (userId: string) => string }) {}

  async put(userId: string, bytes: Buffer): Promise<void> {
    if (bytes.length > PHOTO_MAX_BYTES) {
      throw new ValidationError([{ field: 'photo', rule: 'max_size', message: 'a profile photo is at most 5 MiB' }]);
    }
    // A file cut short can make the detector fail rather than answer: it is no image either way.
    const type = (await fileTypeFromBuffer(bytes).catch(() => undefined))?.mime;
    if (!type || !PHOTO_TYPES.includes(type)) {
      throw new ValidationError([{ field: 'photo', rule: 'image_type', message: 'the photo must be a JPEG, PNG or WebP image (judged from its bytes)' }]);
    }
    const now = this.deps.clock.now();
    await this.deps.db.transaction(async (trx) => {
      await trx('profile_photos').insert({ user_id: userId, content_type: type, bytes, updated_at: now }).onConflict('user_id').merge();
      await trx('users').where({ id: userId }).update({ profile_photo_url: this.deps.photoUrl(userId), updated_at: now });
    });
  }

  async get(userId: string): Promise<Photo> {
    const row: { content_type: string; bytes: Buffer; updated_at: Date } | undefined = await this.deps.db('profile_photos').where({ user_id: userId }).first();
    if (!row) throw new NotFoundError('The traveler has no profile photo: upload one with PUT .../profile-photo.', 'photo_not_found');
    return { contentType: row.content_type, bytes: row.bytes, updatedAt: row.updated_at };
  }

  async remove(userId: string): Promise<void> {
    await this.deps.db.transaction(async (trx) => {
      await trx('profile_photos').where({ user_id: userId }).delete();
      await trx('users').where({ id: userId }).update({ profile_photo_url: null, updated_at: this.deps.clock.now() });
    });
  }
}
