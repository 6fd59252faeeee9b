/**
 * Unpaid holds at their deadlines (decisions §9 and §14): two hours before, the partner is warned
 * (booking.hold_expiring); at the deadline, the hold is let go (authorization voided, order cancelled,
 * booking cancelled: booking.hold_expired). Each is a job due at its time, enqueued with the step that
 * left the hold at rest; the sweep of expired rows lets go of any hold whose job did not come.
 */
import { bookingEventData, HOLD_LAPSE_JOB, HOLD_LAPSED } from './booking-events.js';
import { LeaseLost, type BookingSaga, type SagaDeps } from './saga.js';
import * as store from './store.js';

const HOLD_EXPIRING_NOTE = 'hold expiring: partner warned';

export class HoldDeadlines {
  constructor(
    private readonly deps: SagaDeps,
    private readonly saga: BookingSaga,
  ) {}

  /** Holds past their provider deadline: authorization voided, order cancelled, booking cancelled. */
  async sweepLapsed(): Promise<number> {
    let swept = 0;
    for (const id of await store.lapsedHolds(this.deps.db, this.deps.clock.now(), 50)) {
      if (await this.lapse(id)) swept += 1;
    }
    return swept;
  }

  /**
   * Lets go of a hold whose deadline passed unpaid (its job, due at the deadline, and the sweep): true
   * when it was let go now. A hold being paid, paid already or not due yet is left as it is.
   */
  async lapse(id: string): Promise<boolean> {
    const row = await store.findById(this.deps.db, id);
    if (!row || row.order_type !== 'hold' || row.status !== 'booking_created' || row.confirm_requested) return false;
    if (!row.payment_required_by) return false;
    if (row.payment_required_by > this.deps.clock.now()) {
      // The job ran a moment early by this instance's clock: it comes back at the deadline.
      await this.deps.jobs.enqueue(this.deps.db, [{ name: HOLD_LAPSE_JOB, data: { booking_id: id }, startAfter: row.payment_required_by }]);
      return false;
    }
    const owner = this.saga.newOwner();
    const taken = await store.takeLease(this.deps.db, id, ['booking_created'], owner, this.saga.leaseUntil(), this.deps.clock.now());
    if (!taken || taken.confirm_requested) return false;
    try {
      await this.saga.cancel(taken, owner, HOLD_LAPSED);
      return true;
    } catch (error) {
      // One hold that cannot be let go now does not keep the others: the next sweep tries it again.
      if (!(error instanceof LeaseLost)) this.deps.logger.error({ err: error, booking_id: id }, 'a lapsed hold could not be let go; the next sweep tries again');
      return false;
    }
  }

  /** booking.hold_expiring, two hours before an unpaid hold's deadline; once, and only while it is unpaid. */
  async warnExpiring(id: string): Promise<void> {
    const row = await store.findById(this.deps.db, id);
    if (!row?.partner_id || row.order_type !== 'hold' || row.status !== 'booking_created' || row.confirm_requested) return;
    if (!row.payment_required_by || row.payment_required_by <= this.deps.clock.now()) return;
    const now = this.deps.clock.now();
    await this.deps.db.transaction(async (trx) => {
      // The booking's row locked, then read again: a hold paid meanwhile is warned of no more.
      const locked = await store.lockForUpdate(trx, row.id);
      if (!locked || locked.status !== 'booking_created' || locked.confirm_requested) return;
      // The note is the record that the warning went: a job run twice warns once.
      if (!(await store.noteOnce(trx, row.id, locked.status, HOLD_EXPIRING_NOTE, now))) return;
      await this.deps.events.record(trx, { partnerId: row.partner_id as string, type: 'booking.hold_expiring', data: bookingEventData({ ...locked, offer: row.offer }), at: now });
    });
  }
}
