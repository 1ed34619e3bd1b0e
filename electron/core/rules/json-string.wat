;; The JSON string scan of json-string.ts, 16 bytes at a time (WebAssembly SIMD): the bytes of a
;; long string are copied into this module's memory and scanned here. Source of
;; json-string-wasm.ts (regenerate: node bin/wasm-build.cjs; a test checks they agree).
(module
  ;; 1 MiB window + one page of slack (a vector load never starts past `end` - 16).
  (memory (export "memory") 17 17)

  ;; stringEnd(i, end): the closing quote's index in [i, end); -1 when a control character or a
  ;; bad escape comes first; -2 - p when the window ends at p before that (p = end, or p is an
  ;; escape whose 6 bytes may run past `end`): the caller resumes at p with more bytes.
  (func (export "stringEnd") (param $i i32) (param $end i32) (result i32)
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
      ;; An escape: the caller finishes one that may not fit before `end`.
      (if (i32.gt_u (i32.add (local.get $i) (i32.const 6)) (local.get $end))
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
    (unreachable)))
