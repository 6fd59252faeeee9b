/**
 * The networks each traveler has signed in from (a network: an IPv4 /24 or IPv6 /64, as the caller
 * words it). Remembered for half a year after the last sign-in from it, in the database so that every
 * instance knows them.
 */
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';

const REMEMBERED_MS = 183 * 24 * 3600 * 1000;

export class KnownNetworks {
  constructor(private readonly deps: { db: Knex; clock: Clock }) {}

  async remember(userId: string, network: string): Promise<void> {
    await this.deps
      .db('sign_in_networks')
      .insert({ user_id: userId, network, last_signed_in_at: this.deps.clock.now() })
      .onConflict(['user_id', 'network'])
      .merge(['last_signed_in_at']);
  }

  /** Whether the traveler with this e-mail address has signed in from `network` lately. */
  async isKnown(email: string, network: string): Promise<boolean> {
    const row = await this.deps
      .db('sign_in_networks')
      .join('users', 'users.id', 'sign_in_networks.user_id')
      .whereRaw('lower(users.email) = ?', [email.trim().toLowerCase()])
      .where('sign_in_networks.network', network)
      .where('sign_in_networks.last_signed_in_at', '>', new Date(this.deps.clock.now().getTime() - REMEMBERED_MS))
      .first('sign_in_networks.user_id');
    return row !== undefined;
  }

  /** Forgets networks not signed in from for half a year; answers how many. */
  async sweepExpired(): Promise<number> {
    return this.deps.db('sign_in_networks').where('last_signed_in_at', '<=', new Date(this.deps.clock.now().getTime() - REMEMBERED_MS)).delete();
  }
}
