/**
 * Offers: a partner hands us a provider's offer verbatim; we check it with that provider's native schema,
 * normalize it, and keep both. The offer gets our own id (what every later call names); it belongs to the
 * partner that created it, and after its `expires_at` it answers 410 `offer_expired`. The first traveler
 * who uses it claims it (see owner.ts): from then on it is theirs alone, with the passenger details kept
 * for its order.
 */
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { ConflictError, GoneError, NotFoundError, NotImplementedError, ProviderRejectedError, ValidationError, type FieldError } from '../errors.js';
import { checkInput } from '../input-checks.js';
import { checkAmounts } from './offer-checks.js';
import type { FlightProvider } from './flight-provider.js';
import type { OfferNormalizer } from './offer-normalizer.js';
import type { Offer, OfferPassengerDetails, OfferPassengerMapping, PassengerUpdateRequest, PricingResult, SeatMap } from './offer-schemas.js';
import { insertOffer, normalized, offerOfTraveler, present, presentJson, stored, storedJsonOfPartner, WITHOUT_RAW, type Columns, type OfferRow, type ReachedRow, type StoredJsonRow } from './offer-rows.js';
import { offersReachedBy, ownerColumns, type Owner } from './owner.js';
import type { ProviderCatalog } from './provider-catalog.js';
import { readBookable } from './bookable-read.js';

export interface BookableOffer {
  id: string;
  providerOfferId: string | null;
  /** Normalized, with `raw_offer`. */
  offer: Offer;
  /** The provider's own offer, as last priced. */
  raw: Record<string, unknown>;
  pricedAt: Date | null;
  /** Saved passenger ids by the offer's passenger ids (saveOfferPassengers). */
  savedPassengers: ReadonlyMap<string, string>;
  /** The row's version (`updated_at`) when read: a pricing that follows writes over that version without reading it again. */
  version?: Date;
}

export class OfferService {
  readonly #normalizers: ReadonlyMap<string, OfferNormalizer>;
  readonly #adapters: ReadonlyMap<string, FlightProvider>;
  readonly #storedJson: Columns;

  constructor(
    private readonly deps: {
      db: Knex;
      clock: Clock;
      providers: ProviderCatalog;
      normalizers: OfferNormalizer[];
      adapters: FlightProvider[];
      /** Seals what must not be stored in plain text (passengers' identity documents). */
      secrets: SecretBox;
    },
  ) {
    this.#normalizers = new Map(deps.normalizers.map((normalizer) => [normalizer.providerId, normalizer]));
    this.#adapters = new Map(deps.adapters.map((adapter) => [adapter.providerId, adapter]));
    this.#storedJson = ['id', 'user_id', 'expires_at', 'created_at', 'updated_at', deps.db.raw('offer::text AS offer_json'), deps.db.raw('raw_offer::text AS raw_json')];
  }

  async create(owner: Owner, providerId: string, native: unknown): Promise<{ offer_id: string }> {
    const now = this.deps.clock.now();
    const { offer, providerOfferId } = this.#normalize(providerId, native, now);
    const id = await insertOffer(this.deps.db, {
      provider_id: providerId,
      provider_offer_id: providerOfferId,
      ...ownerColumns(owner),
      offer: JSON.stringify(stored(offer)),
      raw_offer: JSON.stringify(native),
      expires_at: new Date(offer.expires_at),
      created_at: now,
    });
    return { offer_id: id };
  }

  /** Replaces the offer with a newer one from the provider (same provider); it keeps its id. */
  async replace(owner: Owner, providerId: string, offerId: string, native: unknown): Promise<{ offer_id: string }> {
    const row = await this.#row(owner, providerId, offerId, { evenExpired: true });
    const { offer, providerOfferId } = this.#normalize(providerId, native, this.deps.clock.now());
    await this.deps.db.transaction(async (trx) => {
      await this.#update(trx, row, {
        provider_offer_id: providerOfferId,
        offer: JSON.stringify(stored(offer)),
        raw_offer: JSON.stringify(native),
        expires_at: new Date(offer.expires_at),
        priced_at: null,
      });
      // Who travels as which passenger holds only for passengers the new offer still has.
      await trx('offer_passengers').where({ offer_id: row.id }).whereNotIn('provider_passenger_id', offer.passengers.map((passenger) => passenger.id)).delete();
    });
    return { offer_id: row.id };
  }

  /**
   * Says which of the traveler's saved passengers travels as which passenger of the offer. The whole
   * list is replaced at once; every provider passenger id must be one of the offer's, and every saved
   * passenger one of the traveler's own (not deleted).
   */
  async savePassengers(owner: Owner & { userId: string }, providerId: string, offerId: string, mappings: OfferPassengerMapping[]) {
    const row = await this.#row(owner, providerId, offerId);
    const known = new Set(row.offer.passengers.map((passenger) => passenger.id));
    const problems: FieldError[] = [];
    mappings.forEach((mapping, index) => {
      if (!known.has(mapping.provider_passenger_id)) {
        problems.push({
          field: `passengers.${index}.provider_passenger_id`,
          rule: 'offer_passenger',
          message: `${mapping.provider_passenger_id} is not a passenger of this offer: use one of ${[...known].join(', ')}`,
        });
      }
      const twice = mappings.findIndex((other) => other.provider_passenger_id === mapping.provider_passenger_id || other.user_passenger_id === mapping.user_passenger_id);
      if (twice !== index) problems.push({ field: `passengers.${index}`, rule: 'unique', message: 'each passenger may appear once' });
    });
    const own = new Set(
      (await this.deps.db('user_passengers').whereIn('id', mappings.map((mapping) => mapping.user_passenger_id)).where({ user_id: owner.userId }).whereNull('deleted_at').select('id')).map(
        (row: { id: string }) => row.id,
      ),
    );
    mappings.forEach((mapping, index) => {
      if (!own.has(mapping.user_passenger_id)) {
        problems.push({
          field: `passengers.${index}.user_passenger_id`,
          rule: 'own_passenger',
          message: `${mapping.user_passenger_id} is not one of the traveler's saved passengers: list them with GET /v1/users/me/passengers`,
        });
      }
    });
    if (problems.length > 0) throw new ValidationError(problems);
    await this.deps.db.transaction(async (trx) => {
      // One save at a time per offer; the offer is the traveler's (#row claimed it), so its passengers are too.
      await trx('offers').where({ id: row.id }).forUpdate().first('id');
      await trx('offer_passengers').where({ offer_id: row.id }).delete();
      await trx('offer_passengers').insert(mappings.map((mapping) => ({ offer_id: row.id, user_id: owner.userId, ...mapping })));
    });
    return { passengers: mappings.map(({ user_passenger_id, provider_passenger_id }) => ({ user_passenger_id, provider_passenger_id })) };
  }

  /** The partner's offer, normalized, with the provider's own as `raw_offer`. */
  async get(owner: Owner, providerId: string, offerId: string): Promise<Offer> {
    return present(await this.#row<OfferRow>(owner, providerId, offerId));
  }

  /**
   * The offer as get() gives it, as JSON text made of the stored JSON as it is: it was checked and
   * normalized when it entered, so a read neither parses it into objects nor serializes them again.
   */
  async getJson(owner: Owner, providerId: string, offerId: string): Promise<string> {
    // A traveler's read may claim the offer: the general read does that.
    if (owner.userId) return presentJson(await this.#row<StoredJsonRow>(owner, providerId, offerId, { columns: this.#storedJson }));
    this.deps.providers.get(providerId);
    // A partner's read over REST with its key alone (getProviderOffer): one prepared statement.
    const row = owner.partnerId && UUID.test(offerId) ? await storedJsonOfPartner(this.deps.db, offerId, providerId, owner.partnerId) : undefined;
    if (!row) throw offerNotFound(offerId, providerId);
    if (row.expires_at <= this.deps.clock.now()) throw expired(row.expires_at.toISOString());
    return presentJson(row);
  }

  /** The offer without the provider's own (`raw_offer`), which is then not even read: what an agent is shown. */
  async getNormalized(owner: Owner, providerId: string, offerId: string): Promise<Offer> {
    // An agent's read (get_offer_details): one statement, without the query builder.
    const userId = owner.door === 'tools' ? owner.userId : undefined;
    const agentRead = userId ? () => offerOfTraveler(this.deps.db, offerId, providerId, userId) : undefined;
    return normalized(await this.#row<Omit<OfferRow, 'raw_offer'>>(owner, providerId, offerId, { columns: WITHOUT_RAW, read: agentRead }));
  }

  /** When the offer was last priced with its provider; null when never. */
  async pricedAt(owner: Owner, providerId: string, offerId: string): Promise<Date | null> {
    return (await this.#row(owner, providerId, offerId)).priced_at;
  }

  /**
   * Prices the offer with the provider again and keeps what it answers. A changed price is said
   * (`price_changed`, with the previous total), never hidden.
   */
  async price(owner: Owner, providerId: string, offerId: string): Promise<PricingResult> {
    return this.#price(providerId, await this.#row<OfferRow>(owner, providerId, offerId));
  }

  /**
   * price() for an offer a booking has just read (bookable()): it is priced as read, not read again. One
   * changed since is `offer_changed` (409), as for two pricings at once.
   */
  async priceBookable(owner: Owner, providerId: string, bookable: BookableOffer): Promise<PricingResult> {
    if (!bookable.version) return this.price(owner, providerId, bookable.id);
    return this.#price(providerId, { id: bookable.id, updated_at: bookable.version, raw_offer: bookable.raw, offer: bookable.offer });
  }

  async #price(providerId: string, row: Pick<OfferRow, 'id' | 'updated_at' | 'raw_offer'> & { offer: Pick<Offer, 'total_amount' | 'total_currency'> }): Promise<PricingResult> {
    const { offer } = await this.#adapter(providerId).price(row.raw_offer);
    checkAmounts(offer);
    const previous = row.offer.total_amount;
    const updated = await this.#update(this.deps.db, row, {
      offer: JSON.stringify(stored(offer)),
      raw_offer: JSON.stringify(offer.raw_offer ?? row.raw_offer),
      expires_at: new Date(offer.expires_at),
      priced_at: this.deps.clock.now(),
    });
    return {
      offer: present(updated),
      price_changed: offer.total_amount !== previous || offer.total_currency !== row.offer.total_currency,
      previous_total_amount: previous,
    };
  }

  /**
   * The offer as a booking needs it: reached (and claimed) by `owner`, not expired, with when it was last
   * priced and which saved passenger travels as which of its passengers.
   */
  async bookable(owner: Owner & { userId: string }, providerId: string, offerId: string): Promise<BookableOffer> {
    this.deps.providers.get(providerId);
    const found = UUID.test(offerId) ? await readBookable(this.deps.db, owner, providerId, offerId) : undefined;
    if (found?.user_id) {
      if (found.expires_at <= this.deps.clock.now()) throw expired(found.expires_at.toISOString());
      return bookableOf(found, found.saved_passengers);
    }
    // None reached, or claimed by another request meanwhile: the general read says which, in its words.
    const row = await this.#row(owner, providerId, offerId);
    const mappings: { provider_passenger_id: string; user_passenger_id: string }[] = await this.deps.db('offer_passengers').where({ offer_id: row.id });
    return bookableOf(row, mappings);
  }

  /** The seats of each segment, for providers that sell seats (capability `supports_seat_selection`). */
  async seatMaps(owner: Owner, providerId: string, offerId: string): Promise<SeatMap[]> {
    if (!this.deps.providers.capabilities(providerId).supports_seat_selection) {
      throw new ProviderRejectedError(
        `${providerId} does not sell seats (its capabilities say supports_seat_selection: false): book without seat selection.`,
        'seat_selection_not_supported',
      );
    }
    const row = await this.#row(owner, providerId, offerId);
    const adapter = this.#adapter(providerId);
    if (!adapter.seatMaps) throw new NotImplementedError(`Seat maps of ${providerId} are not supported yet.`, 'provider_not_supported');
    return adapter.seatMaps(row.raw_offer, row.id);
  }

  /**
   * Gives the provider the details of one of the offer's passengers, where its capabilities say
   * `supports_offer_passenger_update`. `passenger_id` in the body, when sent, must name the same passenger.
   */
  async updatePassenger(
    owner: Owner,
    providerId: string,
    offerId: string,
    providerPassengerId: string,
    update: PassengerUpdateRequest,
  ): Promise<OfferPassengerDetails> {
    if (!this.deps.providers.capabilities(providerId).supports_offer_passenger_update) {
      throw new ProviderRejectedError(
        `${providerId} takes passenger details only with the booking (its capabilities say supports_offer_passenger_update: false): send them when you book.`,
        'passenger_update_not_supported',
      );
    }
    const adapter = this.#adapter(providerId);
    if (adapter.requiresPassengerId && update.passenger_id === undefined) {
      throw new ValidationError([{ field: 'passenger_id', rule: 'required', message: `${providerId} needs passenger_id: the passenger's id inside the offer` }]);
    }
    if (update.passenger_id !== undefined && update.passenger_id !== providerPassengerId) {
      throw new ValidationError([{ field: 'passenger_id', rule: 'matches_path', message: 'passenger_id must be the passenger named in the path' }]);
    }
    const row = await this.#row(owner, providerId, offerId);
    const passenger = row.offer.passengers.find((item) => item.id === providerPassengerId);
    if (!passenger) {
      throw new NotFoundError(
        `${providerPassengerId} is not a passenger of this offer: its passengers are ${row.offer.passengers.map((item) => item.id).join(', ')}.`,
        'offer_passenger_not_found',
      );
    }
    if (adapter.updatePassenger) return adapter.updatePassenger(row.raw_offer, providerPassengerId, update);
    return this.#keepForBooking(row.id, passenger, update);
  }

  /**
   * Keeps a passenger's details for a provider that takes them with the order: merged with what was sent
   * before (empty fields ignored), identity documents sealed at rest.
   */
  async #keepForBooking(offerId: string, passenger: Offer['passengers'][number], update: PassengerUpdateRequest): Promise<OfferPassengerDetails> {
    const { passenger_id: _id, identity_documents: documents, ...fields } = update;
    const key = { offer_id: offerId, provider_passenger_id: passenger.id };
    const details = await this.deps.db.transaction(async (trx) => {
      const previous: { details: Record<string, unknown>; documents_sealed: string | null } | undefined = await trx('offer_passenger_details')
        .where(key)
        .forUpdate()
        .first();
      const merged = { ...(previous?.details ?? {}), ...fields };
      const sealed = documents ? this.deps.secrets.seal(JSON.stringify(documents), `offer_passenger_details:${offerId}:${passenger.id}`) : (previous?.documents_sealed ?? null);
      await trx('offer_passenger_details')
        .insert({ ...key, details: JSON.stringify(merged), documents_sealed: sealed, updated_at: this.deps.clock.now() })
        .onConflict(['offer_id', 'provider_passenger_id'])
        .merge();
      return merged as Partial<PassengerUpdateRequest>;
    });
    return {
      id: passenger.id,
      type: passenger.type,
      age: passenger.age ?? null,
      given_name: details.first_name ?? null,
      family_name: details.last_name ?? null,
      loyalty_programme_accounts: details.loyalty_programme_accounts ?? [],
    };
  }

  /**
   * Native in, normalized and checked out: a price that cannot be, an expired offer, text jsonb cannot
   * hold (whichever door or provider the offer came through) are refused.
   */
  #normalize(providerId: string, native: unknown, now: Date) {
    checkInput(native);
    const normalized = this.#normalizer(providerId).normalize(native, now);
    checkAmounts(normalized.offer);
    if (new Date(normalized.offer.expires_at) <= now) throw expired(normalized.offer.expires_at);
    return normalized;
  }

  /**
   * Writes `changes` only if the offer is still as it was read: a replace and a pricing at the same time
   * must not silently undo each other.
   */
  async #update(db: Knex, row: Pick<OfferRow, 'id' | 'updated_at'>, changes: Record<string, unknown>): Promise<OfferRow> {
    const [updated] = await db('offers')
      .where({ id: row.id, updated_at: row.updated_at })
      .update({ ...changes, updated_at: laterThan(this.deps.clock.now(), row.updated_at) })
      .returning('*');
    if (!updated) throw new ConflictError('The offer changed while this request ran: read it again, then retry.', 'offer_changed');
    return updated as OfferRow;
  }

  async #row<R extends ReachedRow = OfferRow>(
    owner: Owner,
    providerId: string,
    offerId: string,
    options: { evenExpired?: boolean; columns?: Columns; read?: () => Promise<R | undefined> } = {},
  ): Promise<R> {
    this.deps.providers.get(providerId);
    const columns = options.columns ?? ['*'];
    // `read`, when given, reads the same row (the same reach and columns) in a cheaper way.
    const read = options.read ?? (async () => (await offersReachedBy(this.deps.db('offers').where({ id: offerId, provider_id: providerId }), owner).first(columns)) as R | undefined);
    const found = UUID.test(offerId) ? await read() : undefined;
    const row = found && owner.userId && found.user_id === null ? await this.#claim(found, owner.userId, columns) : found;
    if (!row) throw offerNotFound(offerId, providerId);
    if (!options.evenExpired && row.expires_at <= this.deps.clock.now()) throw expired(row.expires_at.toISOString());
    return row;
  }

  /**
   * The first traveler who uses an offer that belongs to no traveler makes it theirs, in one conditional
   * write: of two travelers racing for it, one wins and the other finds nothing to reach.
   */
  async #claim<R extends ReachedRow>(row: R, userId: string, columns: Columns): Promise<R | undefined> {
    const [claimed] = await this.deps.db('offers').where({ id: row.id }).whereNull('user_id').update({ user_id: userId }).returning(columns);
    if (claimed) return claimed as R;
    // Someone claimed it meanwhile: it is still reachable if that was this traveler (another request of theirs).
    return (await this.deps.db('offers').where({ id: row.id, user_id: userId }).first(columns)) as R | undefined;
  }

  #adapter(providerId: string): FlightProvider {
    const adapter = this.#adapters.get(providerId);
    if (!adapter) throw new NotImplementedError(`Calls to ${providerId} are not supported yet.`, 'provider_not_supported');
    return adapter;
  }

  #normalizer(providerId: string): OfferNormalizer {
    this.deps.providers.get(providerId);
    const normalizer = this.#normalizers.get(providerId);
    if (!normalizer) {
      const ready = [...this.#normalizers.keys()].join(', ');
      throw new NotImplementedError(`Offers of ${providerId} are not supported yet; offers of ${ready} are.`, 'provider_offers_not_supported');
    }
    return normalizer;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The offer as a booking needs it, from its row and its saved passengers. */
function bookableOf(row: OfferRow, mappings: readonly { provider_passenger_id: string; user_passenger_id: string }[]): BookableOffer {
  return {
    id: row.id,
    providerOfferId: row.provider_offer_id,
    offer: present(row),
    raw: row.raw_offer,
    pricedAt: row.priced_at,
    savedPassengers: new Map(mappings.map((mapping) => [mapping.provider_passenger_id, mapping.user_passenger_id])),
    version: row.updated_at,
  };
}

/** `now`, or a millisecond after `previous` when the clock has not moved (so every write changes the row's version). */
function laterThan(now: Date, previous: Date): Date {
  return now > previous ? now : new Date(previous.getTime() + 1);
}

function offerNotFound(offerId: string, providerId: string): NotFoundError {
  return new NotFoundError(
    `There is no offer ${offerId} of ${providerId} that you can reach: create one first (createProviderOffer over REST, or create_offer from a search_flights result).`,
    'offer_not_found',
  );
}

function expired(expiresAt: string): GoneError {
  return new GoneError(`This offer expired at ${expiresAt}: search again or ask the provider for a new offer.`, 'offer_expired');
}
