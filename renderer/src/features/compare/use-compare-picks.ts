import { useEffect, useState } from 'react';
import { openingPicks, type Candidate } from './compare-model';

/** The picker's choices (pure UI state): its rows, the cursor, sides A and B, and A kept between openings. */
export interface ComparePicks {
  list: Candidate[];
  cursor: number;
  a: Candidate | null;
  b: Candidate | null;
  setCursor: (update: (c: number) => number) => void;
  setA: (c: Candidate | null) => void;
  setB: (c: Candidate | null) => void;
  /** Side A of the last comparison asked for, or of the picker closed: it stays A next time. */
  keepA: (c: Candidate | null) => void;
}

export function useComparePicks(open: boolean, candidates: Candidate[]): ComparePicks {
  const [list, setList] = useState<Candidate[]>([]);
  const [cursor, setCursor] = useState(0);
  const [a, setA] = useState<Candidate | null>(null);
  const [b, setB] = useState<Candidate | null>(null);
  const [lastA, keepA] = useState<Candidate | null>(null);

  // Each time the picker opens (openingPicks); candidates that arrive later (the family) are added.
  useEffect(() => {
    if (!open) return;
    const picks = openingPicks(candidates, lastA);
    setList(picks.list);
    setA(picks.a);
    setB(picks.b);
    setCursor(picks.cursor);
    // Only on opening: a later change of the candidates keeps the picks.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
  useEffect(() => {
    if (open) setList((l) => [...l, ...candidates.filter((c) => !l.some((x) => x.key === c.key))]);
  }, [open, candidates]);

  return { list, cursor, a, b, setCursor: (u) => setCursor(u), setA, setB, keepA };
}
