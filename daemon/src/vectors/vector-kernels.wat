;; The vector search's inner loops, in WebAssembly for its 128-bit SIMD: plain JavaScript has
;; neither SIMD nor 8- and 16-bit integer arithmetic, so these run several times faster here.
;; The generated module is daemon/src/vectors/vector-kernels-wasm.ts (npm run generate:kernels).
(module
  (memory (export "memory") 1)

  ;; For each of `count` rows named by their slot (i32 each, at `slots`), the dot product of the
  ;; row (`stride` int8 values at slab + slot * stride) with the query (`stride` int16 values at
  ;; `query`), written as f64 to `out`. `stride` is a multiple of 16. Each i32 lane adds
  ;; stride / 4 products, so the caller keeps |query| * 127 * stride / 4 below 2^31. Rows are
  ;; taken four at a time: their loads overlap (the rows lie anywhere in a large slab, so
  ;; waiting on memory is most of the cost) and each query load serves four rows. Written out
  ;; in full: V8 does not inline calls between WebAssembly functions (a helper cost a third).
  (func (export "dots")
    (param $query i32) (param $stride i32) (param $slab i32) (param $slots i32) (param $count i32) (param $out i32)
    (local $i i32) (local $four i32) (local $j i32) (local $q i32) (local $ql v128) (local $qh v128) (local $v v128)
    (local $r0 i32) (local $r1 i32) (local $r2 i32) (local $r3 i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local.set $four (i32.and (local.get $count) (i32.const -4)))
    (block $done
      (loop $quads
        (br_if $done (i32.ge_u (local.get $i) (local.get $four)))
        (local.set $r0 (call $row (local.get $slab) (local.get $slots) (local.get $stride) (local.get $i)))
        (local.set $r1 (call $row (local.get $slab) (local.get $slots) (local.get $stride) (i32.add (local.get $i) (i32.const 1))))
        (local.set $r2 (call $row (local.get $slab) (local.get $slots) (local.get $stride) (i32.add (local.get $i) (i32.const 2))))
        (local.set $r3 (call $row (local.get $slab) (local.get $slots) (local.get $stride) (i32.add (local.get $i) (i32.const 3))))
        (local.set $a0 (v128.const i32x4 0 0 0 0))
        (local.set $a1 (v128.const i32x4 0 0 0 0))
        (local.set $a2 (v128.const i32x4 0 0 0 0))
        (local.set $a3 (v128.const i32x4 0 0 0 0))
        (local.set $j (i32.const 0))
        (local.set $q (local.get $query))
        (loop $columns
          (local.set $ql (v128.load (local.get $q)))
          (local.set $qh (v128.load offset=16 (local.get $q)))
          (local.set $v (v128.load (i32.add (local.get $r0) (local.get $j))))
          (local.set $a0
            (i32x4.add (local.get $a0)
              (i32x4.add
                (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (local.get $ql))
                (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (local.get $qh)))))
          (local.set $v (v128.load (i32.add (local.get $r1) (local.get $j))))
          (local.set $a1
            (i32x4.add (local.get $a1)
              (i32x4.add
                (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (local.get $ql))
                (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (local.get $qh)))))
          (local.set $v (v128.load (i32.add (local.get $r2) (local.get $j))))
          (local.set $a2
            (i32x4.add (local.get $a2)
              (i32x4.add
                (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (local.get $ql))
                (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (local.get $qh)))))
          (local.set $v (v128.load (i32.add (local.get $r3) (local.get $j))))
          (local.set $a3
            (i32x4.add (local.get $a3)
              (i32x4.add
                (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (local.get $ql))
                (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (local.get $qh)))))
          (local.set $j (i32.add (local.get $j) (i32.const 16)))
          (local.set $q (i32.add (local.get $q) (i32.const 32)))
          (br_if $columns (i32.lt_u (local.get $j) (local.get $stride))))
        (call $store (local.get $out) (local.get $i) (local.get $a0))
        (call $store (local.get $out) (i32.add (local.get $i) (i32.const 1)) (local.get $a1))
        (call $store (local.get $out) (i32.add (local.get $i) (i32.const 2)) (local.get $a2))
        (call $store (local.get $out) (i32.add (local.get $i) (i32.const 3)) (local.get $a3))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $quads)))
    ;; The last rows, one at a time.
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (local.set $r0 (call $row (local.get $slab) (local.get $slots) (local.get $stride) (local.get $i)))
        (local.set $a0 (v128.const i32x4 0 0 0 0))
        (local.set $j (i32.const 0))
        (local.set $q (local.get $query))
        (loop $columns
          (local.set $v (v128.load (i32.add (local.get $r0) (local.get $j))))
          (local.set $a0
            (i32x4.add (local.get $a0)
              (i32x4.add
                (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load (local.get $q)))
                (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=16 (local.get $q))))))
          (local.set $j (i32.add (local.get $j) (i32.const 16)))
          (local.set $q (i32.add (local.get $q) (i32.const 32)))
          (br_if $columns (i32.lt_u (local.get $j) (local.get $stride))))
        (call $store (local.get $out) (local.get $i) (local.get $a0))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rows))))

  ;; Where the i-th named row starts.
  (func $row (param $slab i32) (param $slots i32) (param $stride i32) (param $i i32) (result i32)
    (i32.add (local.get $slab)
      (i32.mul (i32.load (i32.add (local.get $slots) (i32.shl (local.get $i) (i32.const 2)))) (local.get $stride))))

  ;; Adds up the lanes of the i-th row's sums and stores the total.
  (func $store (param $out i32) (param $i i32) (param $sums v128)
    (f64.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 3)))
      (f64.add
        (f64.add
          (f64.convert_i32_s (i32x4.extract_lane 0 (local.get $sums)))
          (f64.convert_i32_s (i32x4.extract_lane 1 (local.get $sums))))
        (f64.add
          (f64.convert_i32_s (i32x4.extract_lane 2 (local.get $sums)))
          (f64.convert_i32_s (i32x4.extract_lane 3 (local.get $sums)))))))

  ;; Hamming distances between the query (`words` i32 words at `query`) and each of `count`
  ;; codes of `words` words laid out one after another from `codes`, written as bytes to `out`;
  ;; `histogram` (i32 per distance) counts the codes at each distance. At most 7 words, so that
  ;; a distance fits its byte. Six-word codes (the 192-bit prefixes) take a path of three 64-bit
  ;; words, for which `codes` is 8-byte aligned. The count is written out in each loop: as a
  ;; helper function it took half of the pass (100k prefixes: 0.45 -> 0.2 ms).
  (func (export "hamming")
    (param $codes i32) (param $count i32) (param $words i32) (param $query i32) (param $out i32) (param $histogram i32)
    (local $i i32) (local $w i32) (local $row i32) (local $distance i32) (local $at i32) (local $q0 i64) (local $q1 i64) (local $q2 i64)
    (if (i32.eq (local.get $words) (i32.const 6))
      (then
        (local.set $q0 (i64.load (local.get $query)))
        (local.set $q1 (i64.load offset=8 (local.get $query)))
        (local.set $q2 (i64.load offset=16 (local.get $query)))
        (local.set $row (local.get $codes))
        (block $done
          (loop $rows
            (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
            (local.set $distance
              (i32.wrap_i64
                (i64.add
                  (i64.add
                    (i64.popcnt (i64.xor (i64.load (local.get $row)) (local.get $q0)))
                    (i64.popcnt (i64.xor (i64.load offset=8 (local.get $row)) (local.get $q1))))
                  (i64.popcnt (i64.xor (i64.load offset=16 (local.get $row)) (local.get $q2))))))
            (i32.store8 (i32.add (local.get $out) (local.get $i)) (local.get $distance))
            (local.set $at (i32.add (local.get $histogram) (i32.shl (local.get $distance) (i32.const 2))))
            (i32.store (local.get $at) (i32.add (i32.load (local.get $at)) (i32.const 1)))
            (local.set $row (i32.add (local.get $row) (i32.const 24)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $rows))))
      (else
        (block $done
          (loop $rows
            (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
            (local.set $distance (i32.const 0))
            (local.set $w (i32.const 0))
            (block $measured
              (loop $each
                (br_if $measured (i32.ge_u (local.get $w) (local.get $words)))
                (local.set $distance
                  (i32.add (local.get $distance)
                    (i32.popcnt
                      (i32.xor
                        (i32.load (i32.add (local.get $codes) (i32.shl (i32.add (i32.mul (local.get $i) (local.get $words)) (local.get $w)) (i32.const 2))))
                        (i32.load (i32.add (local.get $query) (i32.shl (local.get $w) (i32.const 2))))))))
                (local.set $w (i32.add (local.get $w) (i32.const 1)))
                (br $each)))
            (i32.store8 (i32.add (local.get $out) (local.get $i)) (local.get $distance))
            (local.set $at (i32.add (local.get $histogram) (i32.shl (local.get $distance) (i32.const 2))))
            (i32.store (local.get $at) (i32.add (i32.load (local.get $at)) (i32.const 1)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $rows))))))

  ;; Writes to `out` (i32 each) the positions, in order, of the `count` distances (bytes from
  ;; `distances`) that lie in (after, upTo], and returns how many there are; after + 1 <= upTo
  ;; <= 255. Sixteen distances are tested at a time, and most blocks hold none.
  (func (export "gather")
    (param $distances i32) (param $count i32) (param $after i32) (param $upTo i32) (param $out i32) (result i32)
    (local $i i32) (local $n i32) (local $mask i32) (local $low v128) (local $span v128) (local $sixteens i32)
    ;; One unsigned comparison tests both bounds: d - (after + 1), wrapped to a byte, <= upTo - after - 1.
    (local.set $low (i8x16.splat (i32.add (local.get $after) (i32.const 1))))
    (local.set $span (i8x16.splat (i32.sub (i32.sub (local.get $upTo) (local.get $after)) (i32.const 1))))
    (local.set $sixteens (i32.and (local.get $count) (i32.const -16)))
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $i) (local.get $sixteens)))
        (local.set $mask
          (i8x16.bitmask
            (i8x16.le_u
              (i8x16.sub (v128.load (i32.add (local.get $distances) (local.get $i))) (local.get $low))
              (local.get $span))))
        (block $empty
          (loop $bits
            (br_if $empty (i32.eqz (local.get $mask)))
            (i32.store (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 2)))
              (i32.add (local.get $i) (i32.ctz (local.get $mask))))
            (local.set $n (i32.add (local.get $n) (i32.const 1)))
            (local.set $mask (i32.and (local.get $mask) (i32.sub (local.get $mask) (i32.const 1))))
            (br $bits)))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $blocks)))
    ;; The last distances, one at a time.
    (block $done
      (loop $rest
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (if (i32.le_u
              (i32.and (i32.sub (i32.load8_u (i32.add (local.get $distances) (local.get $i))) (i32.add (local.get $after) (i32.const 1))) (i32.const 255))
              (i32.sub (i32.sub (local.get $upTo) (local.get $after)) (i32.const 1)))
          (then
            (i32.store (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 2))) (local.get $i))
            (local.set $n (i32.add (local.get $n) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rest)))
    (local.get $n)))
