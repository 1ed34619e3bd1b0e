/**
 * A small fuzzy matcher for the palette: every word of the query must appear in the text as a
 * subsequence. Whole-substring hits beat scattered ones, and hits at a word start beat hits
 * inside a word. null = no match. Pure; the text is expected lower-cased already.
 */
export function fuzzyScore(words: readonly string[], text: string): number | null {
  let total = 0;
  for (const w of words) {
    const s = wordScore(w, text);
    if (s === null) return null;
    total += s;
  }
  return total;
}

export function queryWords(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

const isBoundary = (text: string, i: number) => i === 0 || /[\s/_\-.:([{]/.test(text[i - 1]!);

function wordScore(word: string, text: string): number | null {
  const at = text.indexOf(word);
  if (at >= 0) {
    // A prefix of the text, then a word start, then anywhere.
    let best = at === 0 ? 100 : isBoundary(text, at) ? 80 : 60;
    if (best < 80) {
      for (let i = text.indexOf(word, at + 1); i >= 0; i = text.indexOf(word, i + 1)) {
        if (isBoundary(text, i)) {
          best = 80;
          break;
        }
      }
    }
    return best + Math.min(word.length, 20);
  }
  // Subsequence, scored by how many letters sit next to the previous one or at a word start.
  let score = 0;
  let from = 0;
  let prev = -2;
  for (const ch of word) {
    const i = text.indexOf(ch, from);
    if (i < 0) return null;
    if (i === prev + 1) score += 3;
    else if (isBoundary(text, i)) score += 2;
    prev = i;
    from = i + 1;
  }
  return Math.min(score, 50);
}
