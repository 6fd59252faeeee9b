/**
 * Which traveler a `{userid}` path names (decisions §2): `me` or the caller's own id is the caller; another
 * id is 403, unless the caller is an administrator with an unscoped token, who may act for an existing
 * traveler.
 */
import { z } from 'zod';
import type { Actor } from '../actor.js';
import { ForbiddenError } from '../errors.js';
import type { UserService } from './service.js';

export const UserIdParam = z
  .union([z.literal('me'), z.uuid()])
  .meta({ description: 'A traveler’s id, or `me` for the traveler whose token is sent.', examples: ['me'] });

export async function resolveUserId(actor: Actor, userid: string, users: UserService): Promise<string> {
  if (userid === 'me' || userid.toLowerCase() === actor.userId.toLowerCase()) return actor.userId;
  if (!actor.isAdmin) {
    throw new ForbiddenError('This token acts for one traveler only: use `me` (or that traveler’s own id) in the path.', 'not_your_user');
  }
  await users.getUser(userid);
  return userid;
}
