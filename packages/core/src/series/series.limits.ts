/** How far a series reaches (docs/behaviour.md, "Recurring series"): settings `CALENDAR_SERIES_*`. */
export interface SeriesLimits {
  /** Occurrences of a rule without an end exist up to this many months ahead (`CALENDAR_SERIES_HORIZON_MONTHS`). */
  horizonMonths: number;
  /** The most occurrences one series may hold; a rule giving more is a 400 (`CALENDAR_SERIES_MAX_OCCURRENCES`). */
  maxOccurrences: number;
}

export const DEFAULT_SERIES_LIMITS: SeriesLimits = { horizonMonths: 24, maxOccurrences: 1_000 };

/** The most lines a `recurrence` may have, and the most dates its RDATE and EXDATE lines may list together. */
export const MAX_RECURRENCE_LINES = 50;
export const MAX_RECURRENCE_DATES = 1_000;
/** The longest line of a `recurrence`. */
export const MAX_RECURRENCE_LINE_LENGTH = 20_000;

/**
 * A series' occurrences lie within this many years of its first start: a yearly series of a hundred years fits, a
 * rule spread over millennia (`FREQ=WEEKLY;INTERVAL=1000;COUNT=400`), which every feed would carry as time-zone
 * history, does not.
 */
export const MAX_SERIES_YEARS = 100;
