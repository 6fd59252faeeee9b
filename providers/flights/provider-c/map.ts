/**
 * provider_c (NDC as JSON) native offer → the normalized Offer (providers.md §2):
 * - one slice per PaxJourney; a segment joins PaxSegment, DatedMarketingSegment and DatedOperatingSegment;
 *   its cabin from CabinTypeCode, its brand the journey's PriceClass name;
 * - OfferItem prices are per passenger: base and tax are summed over each item's passengers;
 * - conditions from Cancel/ChangeRestrictions before departure (the highest fee across components);
 * - bags from the BaggageAllowances associated with each passenger and journey.
 */
import { ValidationError } from '../../../core/errors.js';
import { baggages, checkedUtcIso, fareSummary, withSeconds } from '../../../core/flights/normalizing.js';
import type { FareClassMetadata, Offer } from '../../../core/flights/offer-schemas.js';
import { fromMinorUnits, toBoundedDecimalString, toMinorUnits } from '../../../core/money/money.js';
import type { WireOffer } from './wire.js';

export const PROVIDER_ID = 'provider_c';

const PASSENGER_TYPES: Record<string, Offer['passengers'][number]['type']> = { ADT: 'adult', CHD: 'child', INF: 'infant_without_seat' };
/** IATA cabin type codes as NDC carriers send them. */
const CABINS: Record<string, Offer['slices'][number]['segments'][number]['passengers'][number]['cabin_class']> = {
  '1': 'first',
  '2': 'business',
  '4': 'premium_economy',
  '5': 'economy',
};

type Restriction = { AllowedModificationInd: boolean; Fee?: { Amount: { amount: string; curCode: string } }; JourneyStageCode?: string };

type OfferItem = WireOffer['OfferItem'][number];
type Money = { amount: string; curCode: string };

export function toOffer(native: WireOffer): Offer {
  const lists = native.DataLists;
  const currency = native.TotalPrice.TotalAmount.curCode;
  const components = native.OfferItem.flatMap((item) => item.FareDetail.FareComponent);
  const refund = penalty(components.map((component) => component.CancelRestrictions).filter((item): item is Restriction => item !== undefined), currency, 'OfferItem.FareDetail.FareComponent.CancelRestrictions.Fee.Amount.amount');
  const change = penalty(
    components.flatMap((component) => component.ChangeRestrictions ?? []).filter((item) => !item.JourneyStageCode || /prior to departure/i.test(item.JourneyStageCode)),
    currency,
    'OfferItem.FareDetail.FareComponent.ChangeRestrictions.Fee.Amount.amount',
  );
  const paymentLimit = firstPaymentLimit(native.OfferItem);
  const services = (lists.ServiceDefinitionList ?? []).map((service) => `${service.Name} ${(service.Desc ?? []).join(' ')}`);
  const perks = { advanceSeat: mentions(services, /advance seat/i), priorityBoarding: mentions(services, /priority boarding/i), extraLegroom: mentions(services, /extra legroom/i) };
  const firstPassenger = lists.PaxList[0]?.PaxID as string;
  const firstJourney = lists.PaxJourneyList[0]?.PaxJourneyID as string;
  const firstBags = bagsFor(native, firstPassenger, firstJourney);
  const conditions = { refund_before_departure: refund, change_before_departure: change };
  const base = perPassenger(native, currency, (item) => item.Price.BaseAmount, 'Price.BaseAmount');
  const taxed = native.OfferItem.every((item) => item.Price.TaxSummary);
  const componentsOf = componentsByPassenger(native);

  return {
    id: native.OfferID,
    provider_id: PROVIDER_ID,
    expires_at: checkedUtcIso(native.OfferExpirationTimeLimitDateTime),
    total_amount: toBoundedDecimalString(native.TotalPrice.TotalAmount.amount, currency, 'TotalPrice.TotalAmount.amount'),
    total_currency: currency,
    base_amount: fromMinorUnits(base, currency),
    base_currency: currency,
    tax_amount: taxed ? fromMinorUnits(perPassenger(native, currency, (item) => item.Price.TaxSummary?.TotalTaxAmount, 'Price.TaxSummary.TotalTaxAmount'), currency) : null,
    tax_currency: taxed ? currency : null,
    total_emissions_kg: null,
    // Whether documents are needed is the airline's policy, known at order time.
    passenger_identity_documents_required: false,
    supported_passenger_identity_document_types: ['passport'],
    supported_loyalty_programmes: [native.OwnerCode],
    owner: { iata_code: native.OwnerCode },
    passengers: lists.PaxList.map((passenger) => ({ id: passenger.PaxID, type: PASSENGER_TYPES[passenger.PTC] ?? 'adult', age: null })),
    slices: lists.PaxJourneyList.map((journey, journeyIndex) => {
      const brand = priceClassOf(native, journey.PaxJourneyID);
      const bags = lists.PaxList.map((passenger) => bagsFor(native, passenger.PaxID, journey.PaxJourneyID));
      const segments = journey.PaxSegmentRefID.map((segmentId, segmentIndex) => {
        const paxSegment = lists.PaxSegmentList.find((item) => item.PaxSegmentID === segmentId);
        const marketing = lists.DatedMarketingSegmentList.find((item) => item.DatedMarketingSegmentId === paxSegment?.DatedMarketingSegmentRefId);
        if (!paxSegment || !marketing) {
          throw new ValidationError([
            {
              field: `DataLists.PaxJourneyList.${journeyIndex}.PaxSegmentRefID.${segmentIndex}`,
              rule: 'reference',
              message: `${segmentId} names no PaxSegment with a DatedMarketingSegment in DataLists`,
            },
          ]);
        }
        const operating = lists.DatedOperatingSegmentList?.find((item) => item.DatedOperatingSegmentId === marketing.DatedOperatingSegmentRefId);
        return {
          id: paxSegment.PaxSegmentID,
          origin: { iata_code: marketing.Dep.IATA_LocationCode },
          destination: { iata_code: marketing.Arrival.IATA_LocationCode },
          departing_at: withSeconds(marketing.Dep.AircraftScheduledDateTime),
          arriving_at: withSeconds(marketing.Arrival.AircraftScheduledDateTime),
          duration: operating?.Duration ?? null,
          marketing_carrier: { iata_code: marketing.CarrierDesigCode },
          marketing_carrier_flight_number: marketing.MarketingCarrierFlightNumberText,
          operating_carrier: { iata_code: operating?.CarrierDesigCode ?? marketing.CarrierDesigCode },
          operating_carrier_flight_number: operating?.OperatingCarrierFlightNumberText ?? null,
          aircraft: operating?.AircraftTypeCode ? { iata_code: operating.AircraftTypeCode } : null,
          passengers: lists.PaxList.map((passenger, passengerIndex) => {
            const component = componentsOf.get(passenger.PaxID)?.find((item) => item.PaxSegmentRefID === segmentId);
            const { checked, carryOn } = bags[passengerIndex] as Bags;
            return segmentPassenger(
              passenger.PaxID,
              CABINS[paxSegment.CabinTypeCode ?? ''] ?? 'economy',
              paxSegment.CabinTypeName,
              component?.FareBasisCode ?? null,
              brand,
              baggages(checked, carryOn),
            );
          }),
        };
      });
      const first = segments[0] as (typeof segments)[number];
      const last = segments.at(-1) as typeof first;
      return {
        id: journey.PaxJourneyID,
        origin: first.origin,
        destination: last.destination,
        duration: journey.Duration ?? null,
        fare_brand_name: brand,
        conditions: {
          change_before_departure: change,
          advance_seat_selection: perks.advanceSeat ? true : null,
          priority_boarding: perks.priorityBoarding ? true : null,
          priority_check_in: null,
        },
        segments,
      };
    }),
    conditions,
    payment_requirements: {
      // NDC orders are held first and paid later (OrderChange), before the earliest payment time limit.
      requires_instant_payment: false,
      payment_required_by: paymentLimit ? checkedUtcIso(paymentLimit) : null,
      price_guarantee_expires_at: null,
    },
    fare_class_metadata: fareClassMetadata(firstBags, perks, conditions),
    raw_offer: native as Record<string, unknown>,
  };
}

/** The items' payment time limit that sorts first as text (what sorting them all and taking the first gave), if any. */
function firstPaymentLimit(items: OfferItem[]): string | undefined {
  let first: string | undefined;
  for (const { PaymentTimeLimitDateTime: limit } of items) if (limit !== undefined && (first === undefined || limit < first)) first = limit;
  return first;
}

type SegmentPassenger = Offer['slices'][number]['segments'][number]['passengers'][number];

/**
 * A segment's passenger, its cabin's marketing name only when the offer gives one: written field by field
 * in the Offer's order (an object spread in the middle of a literal takes V8's slow copying path).
 */
function segmentPassenger(
  passengerId: string,
  cabinClass: SegmentPassenger['cabin_class'],
  cabinName: string | undefined,
  fareBasisCode: string | null,
  brand: string | null,
  bags: SegmentPassenger['baggages'],
): SegmentPassenger {
  if (!cabinName) return { passenger_id: passengerId, cabin_class: cabinClass, fare_basis_code: fareBasisCode, fare_brand_name: brand, baggages: bags };
  return { passenger_id: passengerId, cabin_class: cabinClass, cabin_class_marketing_name: cabinName, fare_basis_code: fareBasisCode, fare_brand_name: brand, baggages: bags };
}

/** Each passenger's fare components (of every item priced for them, in order), for the per-segment lookups: one pass over the items. */
function componentsByPassenger(native: WireOffer): Map<string, OfferItem['FareDetail']['FareComponent']> {
  const components = new Map<string, OfferItem['FareDetail']['FareComponent']>();
  for (const passenger of native.DataLists.PaxList) components.set(passenger.PaxID, []);
  for (const item of native.OfferItem) {
    item.FareDetail.PaxRefID.forEach((passengerId, index, ids) => {
      // A passenger named twice in one item still has its components once.
      if (ids.indexOf(passengerId) === index) components.get(passengerId)?.push(...item.FareDetail.FareComponent);
    });
  }
  return components;
}

type Bags = { checked: number; carryOn: number };
type Perks = { advanceSeat: boolean; priorityBoarding: boolean; extraLegroom: boolean };

/** OfferItem prices are per passenger: an amount summed over each item's passengers, in minor units. */
function perPassenger(native: WireOffer, currency: string, pick: (item: OfferItem) => Money | undefined, field: string): bigint {
  return native.OfferItem.reduce((sum, item, index) => {
    const amount = pick(item);
    return amount ? sum + toMinorUnits(toBoundedDecimalString(amount.amount, amount.curCode, `OfferItem.${index}.${field}`), currency) * BigInt(item.FareDetail.PaxRefID.length) : sum;
  }, 0n);
}

/** The name of the journey's price class (its brand), or null. */
function priceClassOf(native: WireOffer, journeyId: string): string | null {
  const classId = native.JourneyOverview?.JourneyPriceClass.find((item) => item.PaxJourneyRefID === journeyId)?.PriceClassRefID;
  return native.DataLists.PriceClassList?.find((item) => item.PriceClassID === classId)?.Name ?? null;
}

/** The bags a passenger flies a journey with: the allowances associated with both (or with the passenger alone). */
function bagsFor(native: WireOffer, passengerId: string, journeyId: string): Bags {
  let checked = 0;
  let carryOn = 0;
  for (const association of native.BaggageAssociations ?? []) {
    if (!association.PaxRefID.includes(passengerId) || (association.PaxJourneyRefID && association.PaxJourneyRefID !== journeyId)) continue;
    const allowance = native.DataLists.BaggageAllowanceList?.find((item) => item.BaggageAllowanceID === association.BaggageAllowanceRefID);
    if (allowance?.TypeCode === 'Checked') checked += allowance.PieceAllowance?.TotalQty ?? 0;
    if (allowance?.TypeCode === 'CarryOn') carryOn += allowance.PieceAllowance?.TotalQty ?? 0;
  }
  return { checked, carryOn };
}

function mentions(services: string[], pattern: RegExp): boolean {
  return services.some((text) => pattern.test(text));
}

/** Allowed only if every component allows it; the penalty is the highest fee across them. */
function penalty(restrictions: Restriction[], currency: string, field: string) {
  if (restrictions.length === 0) return null;
  if (restrictions.some((restriction) => !restriction.AllowedModificationInd)) return { allowed: false, penalty_amount: null, penalty_currency: null };
  const fees = restrictions.map((restriction) => restriction.Fee?.Amount).filter((fee) => fee !== undefined);
  if (fees.length === 0) return { allowed: true, penalty_amount: null, penalty_currency: null };
  const highest = fees.map((fee) => toMinorUnits(toBoundedDecimalString(fee.amount, fee.curCode, field), currency)).reduce((a, b) => (b > a ? b : a));
  return { allowed: true, penalty_amount: fromMinorUnits(highest, currency), penalty_currency: currency };
}

function fareClassMetadata(
  bags: Bags,
  perks: Perks,
  conditions: { refund_before_departure: ReturnType<typeof penalty>; change_before_departure: ReturnType<typeof penalty> },
): FareClassMetadata {
  return fareSummary(
    {
      seat_selection_allowed: perks.advanceSeat,
      extra_legroom: perks.extraLegroom,
      carry_on_bags: bags.carryOn,
      checked_bags: bags.checked,
      checked_bags_paid: false,
      boarding_priority: perks.priorityBoarding ? 'priority' : 'standard',
    },
    conditions.refund_before_departure,
    conditions.change_before_departure,
  );
}
