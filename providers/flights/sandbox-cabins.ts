/**
 * The seat fixtures every flight sandbox draws its seat maps from, each in its own dialect: the cabins of
 * an A320 (3-3) and a 777-300ER (business 1-2-1, economy 3-4-3 without an I column), and the state of
 * every seat: a fixed pattern occupied, the right window seat of the first exit row blocked, the first
 * five rows of a cabin at 11 and exit rows at 25 (major units of the offer's currency; 180 times that in
 * yen), the rest free.
 */
export interface CabinLayout {
  cabinClass: 'economy' | 'premium_economy' | 'business' | 'first';
  /** Seat letters per section, left to right; aisles between sections. */
  sections: string[][];
  rows: [first: number, last: number];
  exitRows: number[];
  wingRows: [first: number, last: number] | null;
}

const LAYOUTS: Record<string, CabinLayout[]> = {
  '320': [{ cabinClass: 'economy', sections: [['A', 'B', 'C'], ['D', 'E', 'F']], rows: [1, 30], exitRows: [12, 13], wingRows: [11, 15] }],
  '77W': [
    { cabinClass: 'business', sections: [['A'], ['D', 'G'], ['K']], rows: [1, 8], exitRows: [], wingRows: null },
    { cabinClass: 'economy', sections: [['A', 'B', 'C'], ['D', 'E', 'F', 'G'], ['H', 'J', 'K']], rows: [30, 60], exitRows: [42], wingRows: [38, 46] },
  ],
};

/** The cabins of an aircraft type; an unknown type flies as an A320. */
export function cabinsOf(aircraft: string | undefined): CabinLayout[] {
  return LAYOUTS[aircraft ?? ''] ?? (LAYOUTS['320'] as CabinLayout[]);
}

export interface SeatState {
  designator: string;
  status: 'available' | 'occupied' | 'blocked';
  /** In major units of the currency (yen: already multiplied); 0 is free. */
  price: number;
  position: 'window' | 'aisle' | 'middle';
  exitRow: boolean;
}

export function seatState(row: number, letter: string, layout: CabinLayout, currency: string): SeatState {
  const sectionIndex = layout.sections.findIndex((section) => section.includes(letter));
  const section = layout.sections[sectionIndex] as string[];
  const index = section.indexOf(letter);
  const outer = (sectionIndex === 0 && index === 0) || (sectionIndex === layout.sections.length - 1 && index === section.length - 1);
  const position = outer ? 'window' : index === 0 || index === section.length - 1 ? 'aisle' : 'middle';
  const exitRow = layout.exitRows.includes(row);
  const lastLetter = layout.sections.at(-1)?.at(-1);
  const status = row === layout.exitRows[0] && letter === lastLetter ? 'blocked' : (row * 7 + letter.charCodeAt(0)) % 5 === 0 ? 'occupied' : 'available';
  const base = row - layout.rows[0] < 5 ? 11 : exitRow ? 25 : 0;
  return { designator: `${row}${letter}`, status, price: currency === 'JPY' ? base * 180 : base, position, exitRow };
}
