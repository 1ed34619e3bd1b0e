/** Timestamps in the canonical ISO form read from bytes as epoch ms (the indexer's timestamp column). PURE. */
function twoDigits(b: Uint8Array, at: number): number {
  const x = b[at]! - 48;
  const y = b[at + 1]! - 48;
  return x >= 0 && x <= 9 && y >= 0 && y <= 9 ? x * 10 + y : -1;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Epoch ms of a timestamp written exactly as `Date.prototype.toISOString` writes it
 * (YYYY-MM-DDTHH:MM:SS.mmmZ, years 0000–9999, a real calendar date), so that
 * `new Date(ms).toISOString()` gives the same text back; NaN for anything else.
 */
export function isoMillis(b: Uint8Array, s: number, e: number): number {
  if (
    e - s !== 24 ||
    b[s + 4] !== 45 ||
    b[s + 7] !== 45 ||
    b[s + 10] !== 84 ||
    b[s + 13] !== 58 ||
    b[s + 16] !== 58 ||
    b[s + 19] !== 46 ||
    b[s + 23] !== 90
  ) {
    return NaN;
  }
  const hi = twoDigits(b, s);
  const lo = twoDigits(b, s + 2);
  const mo = twoDigits(b, s + 5);
  const d = twoDigits(b, s + 8);
  const h = twoDigits(b, s + 11);
  const mi = twoDigits(b, s + 14);
  const sec = twoDigits(b, s + 17);
  const ms1 = twoDigits(b, s + 20);
  const ms2 = b[s + 22]! - 48;
  if (
    hi < 0 ||
    lo < 0 ||
    mo < 1 ||
    mo > 12 ||
    d < 1 ||
    h < 0 ||
    h > 23 ||
    mi < 0 ||
    mi > 59 ||
    sec < 0 ||
    sec > 59 ||
    ms1 < 0 ||
    ms2 < 0 ||
    ms2 > 9
  ) {
    return NaN;
  }
  const y = hi * 100 + lo;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  if (d > (mo === 2 && leap ? 29 : DAYS_IN_MONTH[mo - 1]!)) return NaN;
  // days from civil (H. Hinnant), proleptic Gregorian
  const yy = mo <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  const days = era * 146097 + doe - 719468;
  return days * 86_400_000 + h * 3_600_000 + mi * 60_000 + sec * 1000 + ms1 * 10 + ms2;
}

const scratch = new Uint8Array(24);

/** isoMillis of a string. */
export function isoMillisText(text: string): number {
  if (text.length !== 24) return NaN;
  for (let k = 0; k < 24; k++) {
    const c = text.charCodeAt(k);
    if (c > 0x7f) return NaN;
    scratch[k] = c;
  }
  return isoMillis(scratch, 0, 24);
}
