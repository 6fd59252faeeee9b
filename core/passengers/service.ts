/**
 * A traveler's saved passengers and their identity documents. The user is always the one the door
 * resolved from the token and the path, never a field of the body. Passengers are soft-deleted; at most
 * one is the default, changed in one transaction under a lock on the traveler's row. Document numbers
 * are sealed at rest; a primary known-traveler document gives its passenger a known_traveler_number.
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { NotFoundError, ValidationError, type FieldError } from '../errors.js';
import { parseOrThrow } from '../validation.js';
import {
  CreateIdentityDocumentRequest,
  CreatePassengerRequest,
  EXPIRING_DOCUMENT_TYPES,
  UpdateIdentityDocumentRequest,
  UpdatePassengerRequest,
  type IdentityDocument,
  type Passenger,
  type TravelerType,
} from './schemas.js';
import { travelerTypeOn } from './traveler-type.js';

interface PassengerRow {
  id: string;
  user_id: string;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  gender: 'male' | 'female';
  date_of_birth: string;
  email: string | null;
  phone_number: string | null;
  nationality: string | null;
  traveler_type: TravelerType | null;
  is_default: boolean;
  created_at: Date;
  updated_at: Date;
}

interface DocumentRow {
  id: string;
  user_passenger_id: string;
  document_type: IdentityDocument['document_type'];
  document_number_sealed: string;
  issuing_country_code: string;
  issuing_authority: string | null;
  issued_date: string | null;
  expires_on: string | null;
  nationality_on_document: string | null;
  birth_country: string | null;
  is_primary: boolean;
  created_at: Date;
  updated_at: Date;
}

const PASSENGER_COLUMNS = [
  'id',
  'user_id',
  'first_name',
  'middle_name',
  'last_name',
  'gender',
  'date_of_birth',
  'email',
  'phone_number',
  'nationality',
  'traveler_type',
  'is_default',
  'created_at',
  'updated_at',
];

export class PassengerService {
  constructor(private readonly deps: { db: Knex; clock: Clock; secrets: SecretBox }) {}

  /** The traveler's passengers (deleted ones left out), the default first; types at `departureDate` or today. */
  async list(userId: string, departureDate?: string): Promise<Passenger[]> {
    const rows: PassengerRow[] = await this.#live(this.deps.db).where({ user_id: userId }).orderBy([{ column: 'is_default', order: 'desc' }, 'created_at', 'id']);
    return this.#present(rows, departureDate);
  }

  async get(userId: string, passengerId: string): Promise<Passenger> {
    return (await this.#present([await this.#row(this.deps.db, userId, passengerId)]))[0] as Passenger;
  }

  async create(userId: string, input: unknown): Promise<{ id: string }> {
    const fields = parseOrThrow(CreatePassengerRequest, input);
    this.#checkDateOfBirth(fields.date_of_birth);
    const now = this.deps.clock.now();
    return this.deps.db.transaction(async (trx) => {
      if (fields.is_default) await this.#clearDefault(trx, userId);
      const [row] = await trx('user_passengers')
        .insert({ ...fields, user_id: userId, is_default: fields.is_default ?? false, created_at: now, updated_at: now })
        .returning('id');
      return { id: row.id as string };
    });
  }

  async update(userId: string, passengerId: string, input: unknown): Promise<Passenger> {
    const fields = parseOrThrow(UpdatePassengerRequest, input);
    if (fields.date_of_birth) this.#checkDateOfBirth(fields.date_of_birth);
    await this.deps.db.transaction(async (trx) => {
      if (fields.is_default) await this.#clearDefault(trx, userId);
      const row = await this.#row(trx, userId, passengerId, { forUpdate: true });
      const required = (['first_name', 'last_name', 'gender', 'date_of_birth'] as const).filter((field) => field in fields && fields[field] == null);
      if (required.length > 0) throw new ValidationError(required.map((field) => ({ field, rule: 'required', message: `${field} cannot be removed` })));
      await trx('user_passengers')
        .where({ id: row.id })
        .update({ ...fields, updated_at: this.deps.clock.now() });
    });
    return this.get(userId, passengerId);
  }

  /** Soft delete: the row stays for the bookings that name it; it leaves lists and stops being the default. */
  async remove(userId: string, passengerId: string): Promise<void> {
    const row = await this.#row(this.deps.db, userId, passengerId);
    await this.deps.db('user_passengers').where({ id: row.id }).update({ deleted_at: this.deps.clock.now(), is_default: false });
  }

  /** The user's passenger, or 404: another user's passenger answers as if it did not exist. */
  async #row(db: Knex, userId: string, passengerId: string, options: { forUpdate?: boolean } = {}): Promise<PassengerRow> {
    const query = UUID.test(passengerId) ? this.#live(db).where({ id: passengerId, user_id: userId }) : undefined;
    const row: PassengerRow | undefined = await (options.forUpdate ? query?.forUpdate() : query)?.first();
    if (!row) throw new NotFoundError(`There is no saved passenger ${passengerId}: list them with GET /v1/users/me/passengers.`, 'passenger_not_found');
    return row;
  }

  #live(db: Knex) {
    return db('user_passengers').select(PASSENGER_COLUMNS).whereNull('deleted_at');
  }

  /** One default at a time: the traveler's row is locked, so two requests making defaults take turns. */
  async #clearDefault(trx: Knex.Transaction, userId: string): Promise<void> {
    await trx('users').where({ id: userId }).forUpdate().first('id');
    await trx('user_passengers').where({ user_id: userId, is_default: true }).update({ is_default: false });
  }

  /** Not after today anywhere on earth (UTC+14 is a day ahead of UTC at most). */
  #checkDateOfBirth(date: string): void {
    if (date > new Date(this.deps.clock.now().getTime() + 86_400_000).toISOString().slice(0, 10)) {
      throw new ValidationError([{ field: 'date_of_birth', rule: 'not_in_future', message: 'a date of birth cannot be in the future' }]);
    }
  }

  async #present(rows: PassengerRow[], departureDate?: string): Promise<Passenger[]> {
    const on = departureDate ?? this.deps.clock.now().toISOString().slice(0, 10);
    const numbers = await this.#knownTravelerNumbers(rows.map((row) => row.id));
    return rows.map((row) => ({
      ...row,
      traveler_type: row.traveler_type ?? travelerTypeOn(row.date_of_birth, on),
      known_traveler_number: numbers.get(row.id) ?? null,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    }));
  }

  /** Each passenger's primary known-traveler number, opened from its document. */
  async #knownTravelerNumbers(passengerIds: string[]): Promise<Map<string, string>> {
    if (passengerIds.length === 0) return new Map();
    const documents: DocumentRow[] = await this.deps
      .db('identity_documents')
      .whereIn('user_passenger_id', passengerIds)
      .where({ document_type: 'known_traveler_number', is_primary: true });
    return new Map(documents.map((document) => [document.user_passenger_id, this.#number(document)]));
  }

  // Identity documents

  async listDocuments(userId: string, passengerId: string): Promise<IdentityDocument[]> {
    const passenger = await this.#row(this.deps.db, userId, passengerId);
    const rows: DocumentRow[] = await this.#documents(this.deps.db).where({ user_passenger_id: passenger.id }).orderBy(['created_at', 'id']);
    return rows.map((row) => this.#presentDocument(row));
  }

  async getDocument(userId: string, passengerId: string, documentId: string): Promise<IdentityDocument> {
    return this.#presentDocument(await this.#documentRow(this.deps.db, userId, passengerId, documentId));
  }

  async createDocument(userId: string, passengerId: string, input: unknown): Promise<{ id: string }> {
    const fields = parseOrThrow(CreateIdentityDocumentRequest, input);
    checkDocument(fields);
    const id = crypto.randomUUID();
    const now = this.deps.clock.now();
    await this.deps.db.transaction(async (trx) => {
      const passenger = await this.#row(trx, userId, passengerId, { forUpdate: true });
      if (fields.is_primary) await this.#clearPrimary(trx, passenger.id, fields.document_type);
      await trx('identity_documents').insert({
        ...documentColumns(fields),
        id,
        user_passenger_id: passenger.id,
        document_number_sealed: this.#seal(fields.document_number, id),
        is_primary: fields.is_primary ?? false,
        created_at: now,
        updated_at: now,
      });
    });
    return { id };
  }

  async updateDocument(userId: string, passengerId: string, documentId: string, input: unknown): Promise<IdentityDocument> {
    const fields = parseOrThrow(UpdateIdentityDocumentRequest, input);
    await this.deps.db.transaction(async (trx) => {
      await this.#row(trx, userId, passengerId, { forUpdate: true });
      const row = await this.#documentRow(trx, userId, passengerId, documentId);
      const merged = {
        document_type: fields.document_type ?? row.document_type,
        document_number: fields.document_number ?? this.#number(row),
        expires_on: 'expires_on' in fields ? fields.expires_on : row.expires_on,
      };
      checkDocument(merged);
      // Primary after the change (asked now, or already, with perhaps a new type): the only one of its type.
      if (fields.is_primary ?? row.is_primary) await this.#clearPrimary(trx, row.user_passenger_id, merged.document_type, row.id);
      await trx('identity_documents')
        .where({ id: row.id })
        .update({
          ...documentColumns(fields),
          ...(fields.document_number ? { document_number_sealed: this.#seal(fields.document_number, row.id) } : {}),
          updated_at: this.deps.clock.now(),
        });
    });
    return this.getDocument(userId, passengerId, documentId);
  }

  async removeDocument(userId: string, passengerId: string, documentId: string): Promise<void> {
    const row = await this.#documentRow(this.deps.db, userId, passengerId, documentId);
    await this.deps.db('identity_documents').where({ id: row.id }).delete();
  }

  async #documentRow(db: Knex, userId: string, passengerId: string, documentId: string): Promise<DocumentRow> {
    const passenger = await this.#row(db, userId, passengerId);
    const row: DocumentRow | undefined = UUID.test(documentId) ? await this.#documents(db).where({ id: documentId, user_passenger_id: passenger.id }).first() : undefined;
    if (!row) {
      throw new NotFoundError(`There is no identity document ${documentId} of this passenger: list them with GET .../passengers/${passengerId}/documents.`, 'document_not_found');
    }
    return row;
  }

  #documents(db: Knex) {
    return db('identity_documents');
  }

  /** One primary document of a type per passenger: the others of `type` stop being primary. */
  async #clearPrimary(trx: Knex.Transaction, passengerId: string, type: string, except?: string): Promise<void> {
    await trx('identity_documents')
      .where({ user_passenger_id: passengerId, document_type: type, is_primary: true })
      .modify((query) => (except ? query.whereNot({ id: except }) : query))
      .update({ is_primary: false });
  }

  #presentDocument(row: DocumentRow): IdentityDocument {
    const { document_number_sealed: _sealed, ...rest } = row;
    return { ...rest, document_number: this.#number(row), created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
  }

  /** Sealed with its row's id as context: a sealed number copied to another row does not open. */
  #seal(number: string, documentId: string): string {
    return this.deps.secrets.seal(number, `identity_documents:${documentId}`);
  }

  #number(row: DocumentRow): string {
    return this.deps.secrets.open(row.document_number_sealed, `identity_documents:${row.id}`);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function documentColumns(fields: Partial<CreateIdentityDocumentRequest>) {
  const { document_number: _number, ...columns } = fields;
  return columns;
}

/** Documents that expire must say when; a known-traveler number has the form a passenger's has. */
function checkDocument(fields: { document_type: string; document_number: string; expires_on?: string | null | undefined }): void {
  const problems: FieldError[] = [];
  if (EXPIRING_DOCUMENT_TYPES.includes(fields.document_type) && !fields.expires_on) {
    problems.push({ field: 'expires_on', rule: 'required', message: `a ${fields.document_type.replace('_', ' ')} expires: give expires_on` });
  }
  if (fields.document_type === 'known_traveler_number' && !/^[A-Za-z0-9]{5,25}$/.test(fields.document_number)) {
    problems.push({ field: 'document_number', rule: 'known_traveler_number', message: 'a known traveler number is 5 to 25 letters and digits' });
  }
  if (problems.length > 0) throw new ValidationError(problems);
}
