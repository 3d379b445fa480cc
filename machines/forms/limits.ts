/**
 * The limits of the answers, shared by the schema (browser and API), the inputs' `maxLength` and the
 * tests. Lengths count UTF-16 code units after trimming, as the browser's `maxLength` does.
 */

/** A one-line text answer (a name, a post title) unless the field says otherwise. */
export const TEXT_MAX = 200;
/** A multi-line text answer (an address for correspondence, a description). */
export const MULTILINE_MAX = 2000;
/** The English or Chinese text of a premises address. */
export const ADDRESS_MAX = 500;
/** Floor(s), unit/room/shop and lot number of a premises address. */
export const ADDRESS_PART_MAX = 100;
/** Rows of a table field unless it says otherwise. */
export const TABLE_MAX_ROWS = 50;
/** What a number, date or HKIC input may hold before it is looked at (drafts check only this). */
export const NUMBER_INPUT_MAX = 20;
export const DATE_INPUT_MAX = 20;
export const HKIC_INPUT_MAX = 20;
/** A number answer unless the field sets its own bounds. */
export const NUMBER_MAX = 1_000_000;
