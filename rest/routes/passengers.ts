/**
 * Saved passengers and their identity documents (decisions §2): the partner's API key and the traveler's
 * token, `passengers.read` to read and `passengers.write` to change. `{userid}` is `me` or the traveler's
 * own id; another traveler's passenger or document id is a 404.
 */
import { z } from 'zod';
import type { Actor } from '../../core/actor.js';
import {
  CreateIdentityDocumentRequest,
  CreatePassengerRequest,
  IdentityDocument,
  Passenger,
  UpdateIdentityDocumentRequest,
  UpdatePassengerRequest,
} from '../../core/passengers/schemas.js';
import type { PassengerService } from '../../core/passengers/service.js';
import { resolveUserId, UserIdParam } from '../../core/users/access.js';
import type { UserService } from '../../core/users/service.js';
import { defineRoute, type Route } from '../route-table.js';

const Created = z.object({ id: z.uuid() }).meta({ id: 'Created', examples: [{ id: 'b7e3a1c4-58d2-4f6b-a0c9-3d1e7f2b5a68' }] });
const UserPath = z.object({ userid: UserIdParam });
const PassengerPath = UserPath.extend({
  passengerid: z.string().meta({ description: 'The saved passenger’s id.', examples: ['b7e3a1c4-58d2-4f6b-a0c9-3d1e7f2b5a68'] }),
});
const DocumentPath = PassengerPath.extend({
  documentid: z.string().meta({ description: 'The identity document’s id.', examples: ['e2a9c7f1-3b84-4d5e-8f60-1c7b9d2a4e35'] }),
});

const notFound = {
  user: { 404: { code: 'user_not_found', message: 'The traveler of this token no longer exists: sign them in again.' } },
  passenger: {
    404: {
      code: 'passenger_not_found',
      message: 'There is no saved passenger b7e3a1c4-58d2-4f6b-a0c9-3d1e7f2b5a68: list them with GET /v1/users/me/passengers.',
    },
  },
  document: {
    404: {
      code: 'document_not_found',
      message:
        'There is no identity document e2a9c7f1-3b84-4d5e-8f60-1c7b9d2a4e35 of this passenger: list them with GET .../passengers/b7e3a1c4-58d2-4f6b-a0c9-3d1e7f2b5a68/documents.',
    },
  },
};
const ListQuery = z.object({
  departure_date: z.iso.date().optional().describe('Work out each traveler_type at this day of travel instead of today.'),
});

export function passengerRoutes(deps: { passengers: PassengerService; users: UserService }): Route[] {
  const user = (actor: Actor | undefined, userid: string) => resolveUserId(actor as Actor, userid, deps.users);
  // Every route names a traveler in its path (400 when it is neither `me` nor a UUID) and can miss (404).
  const common = { tags: ['Passengers'], auth: 'api_key_and_bearer' as const, errors: [400, 404] };
  return [
    defineRoute({
      ...common,
      method: 'GET',
      path: '/v1/users/{userid}/passengers',
      operationId: 'listPassengers',
      errorExamples: notFound.user,
      summary: 'The traveler’s saved passengers',
      description: 'Deleted passengers are left out; the default passenger comes first.',
      scope: 'passengers.read',
      params: UserPath,
      query: ListQuery,
      responses: { 200: { description: 'The passengers.', schema: z.array(Passenger) } },
      handler: async ({ actor, params, query }) => ({ body: await deps.passengers.list(await user(actor, params.userid), query.departure_date) }),
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: '/v1/users/{userid}/passengers',
      operationId: 'createPassenger',
      description: 'Saves a passenger the traveler books for (themselves or someone else). `traveler_type` is worked out from the date of birth when left out.',
      errorExamples: notFound.user,
      summary: 'Save a passenger',
      scope: 'passengers.write',
      params: UserPath,
      body: CreatePassengerRequest,
      status: 201,
      responses: { 201: { description: 'The new passenger’s id.', schema: Created } },
      handler: async ({ actor, params, body }) => ({ status: 201, body: await deps.passengers.create(await user(actor, params.userid), body) }),
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: '/v1/users/{userid}/passengers/{passengerid}',
      operationId: 'getPassenger',
      description: 'One saved passenger of the traveler; another traveler’s passenger, or a deleted one, is a 404.',
      errorExamples: notFound.passenger,
      summary: 'A saved passenger',
      scope: 'passengers.read',
      params: PassengerPath,
      responses: { 200: { description: 'The passenger.', schema: Passenger } },
      handler: async ({ actor, params }) => ({ body: await deps.passengers.get(await user(actor, params.userid), params.passengerid) }),
    }),
    defineRoute({
      ...common,
      method: 'PUT',
      path: '/v1/users/{userid}/passengers/{passengerid}',
      operationId: 'updatePassenger',
      description: 'Changes the fields sent; those left out keep their values, and a required one cannot be set to null.',
      errorExamples: notFound.passenger,
      summary: 'Change a saved passenger',
      scope: 'passengers.write',
      params: PassengerPath,
      body: UpdatePassengerRequest,
      responses: { 200: { description: 'The passenger as it is now.', schema: Passenger } },
      handler: async ({ actor, params, body }) => ({ body: await deps.passengers.update(await user(actor, params.userid), params.passengerid, body) }),
    }),
    defineRoute({
      ...common,
      method: 'DELETE',
      path: '/v1/users/{userid}/passengers/{passengerid}',
      operationId: 'deletePassenger',
      errorExamples: notFound.passenger,
      summary: 'Delete a saved passenger',
      description: 'The passenger leaves every list; the record is kept for the bookings that name it.',
      scope: 'passengers.write',
      params: PassengerPath,
      status: 204,
      responses: { 204: { description: 'Deleted.' } },
      handler: async ({ actor, params }) => {
        await deps.passengers.remove(await user(actor, params.userid), params.passengerid);
        return { status: 204 };
      },
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: '/v1/users/{userid}/passengers/{passengerid}/documents',
      operationId: 'listIdentityDocuments',
      description: 'The passenger’s identity documents, in the order they were added, numbers decrypted.',
      errorExamples: notFound.passenger,
      summary: 'A saved passenger’s identity documents',
      scope: 'passengers.read',
      params: PassengerPath,
      responses: { 200: { description: 'The documents.', schema: z.array(IdentityDocument) } },
      handler: async ({ actor, params }) => ({ body: await deps.passengers.listDocuments(await user(actor, params.userid), params.passengerid) }),
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: '/v1/users/{userid}/passengers/{passengerid}/documents',
      operationId: 'createIdentityDocument',
      errorExamples: notFound.passenger,
      summary: 'Add an identity document',
      description: 'The document number is stored encrypted. Passports, visas and driving licences need `expires_on`.',
      scope: 'passengers.write',
      params: PassengerPath,
      body: CreateIdentityDocumentRequest,
      status: 201,
      responses: { 201: { description: 'The new document’s id.', schema: Created } },
      handler: async ({ actor, params, body }) => ({ status: 201, body: await deps.passengers.createDocument(await user(actor, params.userid), params.passengerid, body) }),
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: '/v1/users/{userid}/passengers/{passengerid}/documents/{documentid}',
      operationId: 'getIdentityDocument',
      description: 'One identity document of the passenger, its number decrypted (it is stored encrypted).',
      errorExamples: notFound.document,
      summary: 'An identity document',
      scope: 'passengers.read',
      params: DocumentPath,
      responses: { 200: { description: 'The document.', schema: IdentityDocument } },
      handler: async ({ actor, params }) => ({
        body: await deps.passengers.getDocument(await user(actor, params.userid), params.passengerid, params.documentid),
      }),
    }),
    defineRoute({
      ...common,
      method: 'PUT',
      path: '/v1/users/{userid}/passengers/{passengerid}/documents/{documentid}',
      operationId: 'updateIdentityDocument',
      description: 'Changes the fields sent; making it primary unsets the previous primary document of its type.',
      errorExamples: notFound.document,
      summary: 'Change an identity document',
      scope: 'passengers.write',
      params: DocumentPath,
      body: UpdateIdentityDocumentRequest,
      responses: { 200: { description: 'The document as it is now.', schema: IdentityDocument } },
      handler: async ({ actor, params, body }) => ({
        body: await deps.passengers.updateDocument(await user(actor, params.userid), params.passengerid, params.documentid, body),
      }),
    }),
    defineRoute({
      ...common,
      method: 'DELETE',
      path: '/v1/users/{userid}/passengers/{passengerid}/documents/{documentid}',
      operationId: 'deleteIdentityDocument',
      description: 'Deletes the document for good.',
      errorExamples: notFound.document,
      summary: 'Delete an identity document',
      scope: 'passengers.write',
      params: DocumentPath,
      status: 204,
      responses: { 204: { description: 'Deleted.' } },
      handler: async ({ actor, params }) => {
        await deps.passengers.removeDocument(await user(actor, params.userid), params.passengerid, params.documentid);
        return { status: 204 };
      },
    }),
  ];
}
