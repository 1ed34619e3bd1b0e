;; The JSON string scan of json-string.ts, 16 bytes at a time (WebAssembly SIMD), and the validating
;; line scan of json-validate.ts on top of it: a line (or a long string's bytes) is copied into this
;; module's memory, or read there, and scanned here. Source of json-string-wasm.ts (regenerate: node
;; bin/wasm-build.cjs; a test checks they agree).
(module
  ;; Shared memory given by the host (json-string-simd.ts): bytes to scan, and the validator's
  ;; container stack (MAX_DEPTH + 2 bytes) at $STACK. A helper thread validates a file's chunks in
  ;; place in memory the indexing thread reads them into (engine/shared-chunks.ts), with a stack of its own.
  (import "env" "memory" (memory 17 65536 shared))
  (import "env" "stack" (global $STACK i32))
  (global $MAX_DEPTH i32 (i32.const 1000))

  ;; stringEnd(i, end): the closing quote's index in [i, end); -1 when a control character or a
  ;; bad escape comes first; -2 - p when the bytes end at p before that (p = end, or p is an
  ;; escape that runs past `end`): the caller resumes at p with more bytes.
  (func $stringEnd (export "stringEnd") (param $i i32) (param $end i32) (result i32)
    (local $v v128)
    (local $m i32)
    (local $c i32)
    (local $h i32)
    (local $k i32)
    (loop $top
      ;; Whole vectors while none holds a quote, a backslash or a control character.
      (block $found
        (loop $vec
          (br_if $found (i32.gt_u (i32.add (local.get $i) (i32.const 16)) (local.get $end)))
          (local.set $v (v128.load (local.get $i)))
          (local.set $m
            (i8x16.bitmask
              (v128.or
                (v128.or
                  (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x22)))
                  (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x5c))))
                (i8x16.lt_u (local.get $v) (i8x16.splat (i32.const 0x20))))))
          (if (local.get $m)
            (then
              (local.set $i (i32.add (local.get $i) (i32.ctz (local.get $m))))
              (br $found)))
          (local.set $i (i32.add (local.get $i) (i32.const 16)))
          (br $vec)))
      ;; At a special byte, or within 16 bytes of the end: one byte.
      (if (i32.ge_u (local.get $i) (local.get $end))
        (then (return (i32.sub (i32.const -2) (local.get $i)))))
      (local.set $c (i32.load8_u (local.get $i)))
      (if (i32.eq (local.get $c) (i32.const 0x22)) (then (return (local.get $i))))
      (if (i32.lt_u (local.get $c) (i32.const 0x20)) (then (return (i32.const -1))))
      (if (i32.ne (local.get $c) (i32.const 0x5c))
        (then
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $top)))
      ;; An escape that does not fit before `end`: more bytes may complete it (or the line ends in it).
      (if (i32.gt_u (i32.add (local.get $i) (i32.const 2)) (local.get $end))
        (then (return (i32.sub (i32.const -2) (local.get $i)))))
      (local.set $c (i32.load8_u (i32.add (local.get $i) (i32.const 1))))
      ;; " \ / b f n r t
      (if (i32.or
            (i32.or
              (i32.or (i32.eq (local.get $c) (i32.const 0x22)) (i32.eq (local.get $c) (i32.const 0x5c)))
              (i32.or (i32.eq (local.get $c) (i32.const 0x2f)) (i32.eq (local.get $c) (i32.const 0x62))))
            (i32.or
              (i32.or (i32.eq (local.get $c) (i32.const 0x66)) (i32.eq (local.get $c) (i32.const 0x6e)))
              (i32.or (i32.eq (local.get $c) (i32.const 0x72)) (i32.eq (local.get $c) (i32.const 0x74)))))
        (then
          (local.set $i (i32.add (local.get $i) (i32.const 2)))
          (br $top)))
      (if (i32.ne (local.get $c) (i32.const 0x75)) (then (return (i32.const -1))))
      (if (i32.gt_u (i32.add (local.get $i) (i32.const 6)) (local.get $end))
        (then (return (i32.sub (i32.const -2) (local.get $i)))))
      ;; u + four hex digits
      (local.set $k (i32.const 2))
      (loop $hex
        (local.set $h (i32.load8_u (i32.add (local.get $i) (local.get $k))))
        (if (i32.eqz
              (i32.or
                (i32.lt_u (i32.sub (local.get $h) (i32.const 0x30)) (i32.const 10))
                (i32.lt_u (i32.sub (i32.or (local.get $h) (i32.const 0x20)) (i32.const 0x61)) (i32.const 6))))
          (then (return (i32.const -1))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br_if $hex (i32.lt_u (local.get $k) (i32.const 6))))
      (local.set $i (i32.add (local.get $i) (i32.const 6)))
      (br $top))
    (unreachable))
  ;; The byte after the whitespace run starting at i (JSON's four whitespace bytes).
  (func $ws (param $i i32) (param $end i32) (result i32)
    (local $c i32)
    (block $out
      (loop $l
        (br_if $out (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $c (i32.load8_u (local.get $i)))
        (br_if $out
          (i32.eqz
            (i32.or
              (i32.or (i32.eq (local.get $c) (i32.const 0x20)) (i32.eq (local.get $c) (i32.const 0x09)))
              (i32.or (i32.eq (local.get $c) (i32.const 0x0a)) (i32.eq (local.get $c) (i32.const 0x0d))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $l)))
    (local.get $i))

  ;; The byte after true/false/null at i, or -1.
  (func $literalEnd (param $i i32) (param $end i32) (result i32)
    (local $c i32)
    (local.set $c (i32.load8_u (local.get $i)))
    (if (i32.eq (local.get $c) (i32.const 0x66))
      (then
        (if (i32.gt_u (i32.add (local.get $i) (i32.const 5)) (local.get $end)) (then (return (i32.const -1))))
        (if (i32.and
              (i32.eq (i32.load (local.get $i)) (i32.const 1936482662)) ;; "fals"
              (i32.eq (i32.load8_u (i32.add (local.get $i) (i32.const 4))) (i32.const 0x65)))
          (then (return (i32.add (local.get $i) (i32.const 5)))))
        (return (i32.const -1))))
    (if (i32.gt_u (i32.add (local.get $i) (i32.const 4)) (local.get $end)) (then (return (i32.const -1))))
    (if (i32.eq
          (i32.load (local.get $i))
          (select (i32.const 1702195828) (i32.const 1819047278) (i32.eq (local.get $c) (i32.const 0x74)))) ;; "true" / "null"
      (then (return (i32.add (local.get $i) (i32.const 4)))))
    (i32.const -1))

  ;; The byte after the digits starting at i.
  (func $digitsEnd (param $i i32) (param $end i32) (result i32)
    (block $out
      (loop $l
        (br_if $out (i32.ge_u (local.get $i) (local.get $end)))
        (br_if $out (i32.ge_u (i32.sub (i32.load8_u (local.get $i)) (i32.const 0x30)) (i32.const 10)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $l)))
    (local.get $i))

  ;; The byte after a JSON number starting at i, or -1 (numberEnd of json-validate.ts).
  (func $numberEnd (param $i i32) (param $end i32) (result i32)
    (local $c i32)
    (local $from i32)
    (if (i32.eq (i32.load8_u (local.get $i)) (i32.const 0x2d)) (then (local.set $i (i32.add (local.get $i) (i32.const 1)))))
    (if (i32.ge_u (local.get $i) (local.get $end)) (then (return (i32.const -1))))
    (local.set $c (i32.load8_u (local.get $i)))
    (if (i32.eq (local.get $c) (i32.const 0x30))
      (then (local.set $i (i32.add (local.get $i) (i32.const 1))))
      (else
        (if (i32.ge_u (i32.sub (local.get $c) (i32.const 0x31)) (i32.const 9)) (then (return (i32.const -1))))
        (local.set $i (call $digitsEnd (i32.add (local.get $i) (i32.const 1)) (local.get $end)))))
    (if (i32.lt_u (local.get $i) (local.get $end))
      (then
        (if (i32.eq (i32.load8_u (local.get $i)) (i32.const 0x2e))
          (then
            (local.set $from (i32.add (local.get $i) (i32.const 1)))
            (local.set $i (call $digitsEnd (local.get $from) (local.get $end)))
            (if (i32.eq (local.get $i) (local.get $from)) (then (return (i32.const -1))))))))
    (if (i32.lt_u (local.get $i) (local.get $end))
      (then
        (local.set $c (i32.load8_u (local.get $i)))
        (if (i32.or (i32.eq (local.get $c) (i32.const 0x65)) (i32.eq (local.get $c) (i32.const 0x45)))
          (then
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (if (i32.lt_u (local.get $i) (local.get $end))
              (then
                (local.set $c (i32.load8_u (local.get $i)))
                (if (i32.or (i32.eq (local.get $c) (i32.const 0x2b)) (i32.eq (local.get $c) (i32.const 0x2d)))
                  (then (local.set $i (i32.add (local.get $i) (i32.const 1)))))))
            (local.set $from (local.get $i))
            (local.set $i (call $digitsEnd (local.get $from) (local.get $end)))
            (if (i32.eq (local.get $i) (local.get $from)) (then (return (i32.const -1))))))))
    (local.get $i))

  ;; Which key the index reads the raw bytes [from, to) spell, as a bit: type 1, id 2, parentId 4,
  ;; timestamp 8, message 16, targetId 32; 0 for any other key (TOP_KEYS of json-validate.ts).
  (func $topKey (param $from i32) (param $to i32) (result i32)
    (local $n i32)
    (local.set $n (i32.sub (local.get $to) (local.get $from)))
    (if (i32.eq (local.get $n) (i32.const 4))
      (then (return (select (i32.const 1) (i32.const 0) (i32.eq (i32.load (local.get $from)) (i32.const 1701869940)))))) ;; "type"
    (if (i32.eq (local.get $n) (i32.const 2))
      (then (return (select (i32.const 2) (i32.const 0) (i32.eq (i32.load16_u (local.get $from)) (i32.const 25705)))))) ;; "id"
    (if (i32.eq (local.get $n) (i32.const 8))
      (then
        (if (i64.eq (i64.load (local.get $from)) (i64.const 7226435094589890928)) (then (return (i32.const 4)))) ;; "parentId"
        (return (select (i32.const 32) (i32.const 0) (i64.eq (i64.load (local.get $from)) (i64.const 7226435055968739700)))))) ;; "targetId"
    (if (i32.eq (local.get $n) (i32.const 9))
      (then
        (return
          (select (i32.const 8) (i32.const 0)
            (i32.and
              (i64.eq (i64.load (local.get $from)) (i64.const 7881708861846808948)) ;; "timestam"
              (i32.eq (i32.load8_u (i32.add (local.get $from) (i32.const 8))) (i32.const 0x70))))))) ;; "p"
    (if (i32.eq (local.get $n) (i32.const 7))
      (then
        (return
          (select (i32.const 16) (i32.const 0)
            (i32.and
              (i32.and
                (i32.eq (i32.load (local.get $from)) (i32.const 1936942445)) ;; "mess"
                (i32.eq (i32.load16_u (i32.add (local.get $from) (i32.const 4))) (i32.const 26465))) ;; "ag"
              (i32.eq (i32.load8_u (i32.add (local.get $from) (i32.const 6))) (i32.const 0x65))))))) ;; "e"
    (i32.const 0))

  ;; validLine(i, end): 1 when the bytes [i, end) are one line JsonLineValidator.valid accepts, else
  ;; 0 (the same grammar, depth limit and repeated-key rules, in the same order).
  (func (export "validLine") (param $i i32) (param $end i32) (result i32)
    (local $c i32)
    (local $d i32)
    (local $depth i32)
    (local $kind i32)
    (local $opened i32)
    (local $seenTop i32)
    (local $seenRole i32)
    (local $nextIsMessage i32)
    (local $from i32)
    (local $close i32)
    (local $k i32)
    (loop $value
      ;; A value at i.
      (local.set $i (call $ws (local.get $i) (local.get $end)))
      (if (i32.ge_u (local.get $i) (local.get $end)) (then (return (i32.const 0))))
      (local.set $c (i32.load8_u (local.get $i)))
      (local.set $opened (i32.const 0))
      (block $scalar
        (if (i32.eq (local.get $c) (i32.const 0x22))
          (then
            (local.set $close (call $stringEnd (i32.add (local.get $i) (i32.const 1)) (local.get $end)))
            (if (i32.lt_s (local.get $close) (i32.const 0)) (then (return (i32.const 0))))
            (local.set $i (i32.add (local.get $close) (i32.const 1)))
            (br $scalar)))
        (if (i32.or (i32.eq (local.get $c) (i32.const 0x7b)) (i32.eq (local.get $c) (i32.const 0x5b)))
          (then
            (local.set $depth (i32.add (local.get $depth) (i32.const 1)))
            (if (i32.gt_u (local.get $depth) (global.get $MAX_DEPTH)) (then (return (i32.const 0))))
            ;; 2: array, 3: the object under the top level's "message" key, 1: any other object
            (i32.store8
              (i32.add (global.get $STACK) (local.get $depth))
              (if (result i32) (i32.eq (local.get $c) (i32.const 0x5b))
                (then (i32.const 2))
                (else
                  (select (i32.const 3) (i32.const 1)
                    (i32.and (local.get $nextIsMessage) (i32.eq (local.get $depth) (i32.const 2)))))))
            (local.set $i (call $ws (i32.add (local.get $i) (i32.const 1)) (local.get $end)))
            (if (i32.and
                  (i32.lt_u (local.get $i) (local.get $end))
                  (i32.eq
                    (i32.load8_u (local.get $i))
                    (select (i32.const 0x5d) (i32.const 0x7d) (i32.eq (local.get $c) (i32.const 0x5b)))))
              (then
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (local.set $depth (i32.sub (local.get $depth) (i32.const 1))))
              (else (local.set $opened (i32.const 1))))
            (br $scalar)))
        (if (i32.or
              (i32.eq (local.get $c) (i32.const 0x74))
              (i32.or (i32.eq (local.get $c) (i32.const 0x66)) (i32.eq (local.get $c) (i32.const 0x6e))))
          (then
            (local.set $i (call $literalEnd (local.get $i) (local.get $end)))
            (if (i32.lt_s (local.get $i) (i32.const 0)) (then (return (i32.const 0))))
            (br $scalar)))
        (if (i32.or (i32.eq (local.get $c) (i32.const 0x2d)) (i32.lt_u (i32.sub (local.get $c) (i32.const 0x30)) (i32.const 10)))
          (then
            (local.set $i (call $numberEnd (local.get $i) (local.get $end)))
            (if (i32.lt_s (local.get $i) (i32.const 0)) (then (return (i32.const 0))))
            (br $scalar)))
        (return (i32.const 0)))
      (local.set $nextIsMessage (i32.const 0))
      (if (i32.eqz (local.get $opened))
        (then
          ;; After a value: commas and closing brackets until the next value (or the end).
          (block $next
            (loop $after
              (local.set $i (call $ws (local.get $i) (local.get $end)))
              (if (i32.eqz (local.get $depth)) (then (return (i32.eq (local.get $i) (local.get $end)))))
              (local.set $d (if (result i32) (i32.lt_u (local.get $i) (local.get $end))
                (then (i32.load8_u (local.get $i)))
                (else (i32.const -1))))
              (local.set $kind (i32.load8_u (i32.add (global.get $STACK) (local.get $depth))))
              (if (i32.eq (local.get $d) (i32.const 0x2c))
                (then
                  (local.set $i (i32.add (local.get $i) (i32.const 1)))
                  (br $next)))
              (if (i32.eq (local.get $d) (select (i32.const 0x5d) (i32.const 0x7d) (i32.eq (local.get $kind) (i32.const 2))))
                (then
                  (local.set $i (i32.add (local.get $i) (i32.const 1)))
                  (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))
                  (br $after)))
              (return (i32.const 0))))))
      (local.set $kind (i32.load8_u (i32.add (global.get $STACK) (local.get $depth))))
      (br_if $value (i32.eq (local.get $kind) (i32.const 2)))
      ;; A key, then a colon, then the value.
      (local.set $i (call $ws (local.get $i) (local.get $end)))
      (if (i32.ge_u (local.get $i) (local.get $end)) (then (return (i32.const 0))))
      (if (i32.ne (i32.load8_u (local.get $i)) (i32.const 0x22)) (then (return (i32.const 0))))
      (local.set $from (i32.add (local.get $i) (i32.const 1)))
      (local.set $close (call $stringEnd (local.get $from) (local.get $end)))
      (if (i32.lt_s (local.get $close) (i32.const 0)) (then (return (i32.const 0))))
      (if (i32.eq (local.get $depth) (i32.const 1))
        (then
          (local.set $k (call $topKey (local.get $from) (local.get $close)))
          (if (local.get $k)
            (then
              (if (i32.and (local.get $seenTop) (local.get $k)) (then (return (i32.const 0))))
              (local.set $seenTop (i32.or (local.get $seenTop) (local.get $k)))
              (local.set $nextIsMessage (i32.eq (local.get $k) (i32.const 16))))))
        (else
          (if (i32.and
                (i32.eq (local.get $kind) (i32.const 3))
                (i32.and
                  (i32.eq (i32.sub (local.get $close) (local.get $from)) (i32.const 4))
                  (i32.eq (i32.load (local.get $from)) (i32.const 1701605234)))) ;; "role"
            (then
              (if (local.get $seenRole) (then (return (i32.const 0))))
              (local.set $seenRole (i32.const 1))))))
      (local.set $i (call $ws (i32.add (local.get $close) (i32.const 1)) (local.get $end)))
      (if (i32.ge_u (local.get $i) (local.get $end)) (then (return (i32.const 0))))
      (if (i32.ne (i32.load8_u (local.get $i)) (i32.const 0x3a)) (then (return (i32.const 0))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $value))
    (unreachable))
)
