/**
 * The traveler's profile: `GET /v1/users/me` and `/v1/users/{userid}` (`profile.read`), `PUT
 * /v1/users/{userid}` (`profile.write`). `{userid}` is `me` or the traveler's own id (decisions §2).
 */
import { z } from 'zod';
import type { Actor } from '../../core/actor.js';
import { resolveUserId, UserIdParam } from '../../core/users/access.js';
import { PHOTO_MAX_BYTES, type ProfilePhotos } from '../../core/users/profile-photos.js';
import type { UserService } from '../../core/users/service.js';
import { UpdateUserRequest, User } from '../../core/users/schemas.js';
import { defineRoute, JSON_TEXT, type Route } from '../route-table.js';

const UserPath = z.object({ userid: UserIdParam });

const userNotFound = { code: 'user_not_found', message: 'The traveler of this token no longer exists: sign them in again.' };

export function userRoutes(deps: { users: UserService; photos: ProfilePhotos }): Route[] {
  const user = (actor: Actor | undefined, userid: string) => resolveUserId(actor as Actor, userid, deps.users);
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/users/me',
      operationId: 'getCurrentUser',
      summary: 'The signed-in traveler',
      description: "The profile of the traveler whose access token is sent. Needs the partner's API key and the token with `profile.read`.",
      tags: ['Profile'],
      auth: 'api_key_and_bearer',
      scope: 'profile.read',
      responses: { 200: { description: 'The traveler.', schema: User } },
      errors: [404],
      errorExamples: { 404: userNotFound },
      // The profile as the database writes it (JSON text), sent as it is.
      handler: async ({ actor }) => ({ body: await deps.users.getUserJson((actor as NonNullable<typeof actor>).userId), headers: JSON_TEXT }),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/users/{userid}',
      operationId: 'getUser',
      summary: 'A traveler',
      description: '`me` or the traveler’s own id; another traveler’s id is 403.',
      tags: ['Profile'],
      auth: 'api_key_and_bearer',
      scope: 'profile.read',
      params: UserPath,
      responses: { 200: { description: 'The traveler.', schema: User } },
      errors: [400, 404],
      errorExamples: { 404: userNotFound },
      handler: async ({ actor, params }) => ({ body: await deps.users.getUserJson(await user(actor, params.userid)), headers: JSON_TEXT }),
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/users/{userid}',
      operationId: 'updateUser',
      summary: 'Change the traveler’s profile',
      description: 'The fields sent change; `email` and `phone_number` are ignored (they change through the contact change).',
      tags: ['Profile'],
      auth: 'api_key_and_bearer',
      scope: 'profile.write',
      params: UserPath,
      body: UpdateUserRequest,
      responses: { 200: { description: 'The traveler as it is now.', schema: User } },
      errors: [404],
      errorExamples: { 404: userNotFound },
      handler: async ({ actor, params, body }) => ({ body: await deps.users.updateUser(await user(actor, params.userid), body) }),
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/users/{userid}/profile-photo',
      operationId: 'putProfilePhoto',
      summary: 'Upload the traveler’s profile photo',
      description:
        'A JPEG, PNG or WebP image of at most 5 MiB, as the body (its image Content-Type) or as the `photo` field of a multipart form. Its type is judged from its bytes.',
      tags: ['Profile'],
      auth: 'api_key_and_bearer',
      scope: 'profile.write',
      params: UserPath,
      upload: { field: 'photo', maxBytes: PHOTO_MAX_BYTES, types: ['image/jpeg', 'image/png', 'image/webp'] },
      responses: { 200: { description: 'The traveler, `profile_photo_url` pointing at the photo.', schema: User } },
      errors: [404],
      errorExamples: {
        400: {
          code: 'validation_error',
          message: 'The request is not valid: see `fields` for each rule that failed.',
          fields: { photo: { field: 'photo', rule: 'image_type', message: 'the photo must be a JPEG, PNG or WebP image (judged from its bytes)' } },
        },
        404: userNotFound,
        413: { code: 'payload_too_large', message: 'The file is larger than 5 MiB: send a smaller one.' },
        415: {
          code: 'unsupported_media_type',
          message: 'Send the image as the body with Content-Type image/jpeg, image/png, image/webp, or as the "photo" field of a multipart/form-data form.',
        },
      },
      handler: async ({ actor, params, upload }) => {
        const userId = await user(actor, params.userid);
        await deps.photos.put(userId, upload as Buffer);
        return { body: await deps.users.getUser(userId) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/users/{userid}/profile-photo',
      operationId: 'getProfilePhoto',
      summary: 'The traveler’s profile photo',
      description: 'The image as it was uploaded, with its own Content-Type (image/jpeg, image/png or image/webp); 404 `photo_not_found` when there is none.',
      tags: ['Profile'],
      auth: 'api_key_and_bearer',
      scope: 'profile.read',
      params: UserPath,
      responses: { 200: { description: 'The image, with its Content-Type.' } },
      errors: [400, 404],
      errorExamples: { 404: { code: 'photo_not_found', message: 'The traveler has no profile photo: upload one with PUT .../profile-photo.' } },
      handler: async ({ actor, params }) => {
        const photo = await deps.photos.get(await user(actor, params.userid));
        return {
          body: photo.bytes,
          headers: { 'Content-Type': photo.contentType, 'Cache-Control': 'private, max-age=300', 'Last-Modified': photo.updatedAt.toUTCString() },
        };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/users/{userid}/profile-photo',
      operationId: 'deleteProfilePhoto',
      summary: 'Remove the traveler’s profile photo',
      description: '`profile_photo_url` becomes null. Removing a photo that is not there is a 204 as well.',
      tags: ['Profile'],
      auth: 'api_key_and_bearer',
      scope: 'profile.write',
      params: UserPath,
      status: 204,
      responses: { 204: { description: 'Removed.' } },
      errors: [400, 404],
      errorExamples: { 404: userNotFound },
      handler: async ({ actor, params }) => {
        await deps.photos.remove(await user(actor, params.userid));
        return { status: 204 };
      },
    }),
  ];
}
