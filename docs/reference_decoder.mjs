// sinew — reference decoder for docs/format.md, written from the document alone (like zstd's
// educational decoder). Readable, not fast. Every binary32 operation of the spec is rounded with
// Math.fround, so results are bit-identical to any compliant decoder; tests check exactly that.
//
//   import { decode } from './reference_decoder.mjs';
//   const blob = decode(bytes);            // throws Error('...') on anything the spec rejects
//                                          // (format versions 1 and 2; a paged blob is decoded whole,
//                                          // its pages checked like the rest)
//   blob.clips[0].samplePose(t)            // -> { pose: Float32Array(joints * 10), scalars: Float32Array }
//
// Pose layout per joint: rotation x y z w, translation x y z, scale x y z (like sinew_qvv).

const f = Math.fround;

function fail(message) {
  throw new Error(`sinew reference decoder: ${message}`);
}

// XXH32 (docs/format.md §Checksum: seed 0; §Pages: seed = page index).
function xxh32(bytes, start, end, seed = 0) {
  const P1 = 2654435761, P2 = 2246822519, P3 = 3266489917, P4 = 668265263, P5 = 374761393;
  const rotl = (x, r) => ((x << r) | (x >>> (32 - r))) >>> 0;
  const mul = (a, b) => Math.imul(a, b) >>> 0;
  const u32 = (i) => (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24)) >>> 0;
  const round = (acc, input) => mul(rotl((acc + mul(input, P2)) >>> 0, 13), P1);
  let p = start, h;
  const size = end - start;
  if (size >= 16) {
    let v1 = (seed + P1 + P2) >>> 0, v2 = (seed + P2) >>> 0, v3 = seed >>> 0, v4 = (seed - P1) >>> 0;
    while (p + 16 <= end) {
      v1 = round(v1, u32(p)); v2 = round(v2, u32(p + 4)); v3 = round(v3, u32(p + 8)); v4 = round(v4, u32(p + 12));
      p += 16;
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) >>> 0;
  } else {
    h = (seed + P5) >>> 0;
  }
  h = (h + size) >>> 0;
  while (p + 4 <= end) { h = mul(rotl((h + mul(u32(p), P3)) >>> 0, 17), P4); p += 4; }
  while (p < end) { h = mul(rotl((h + mul(bytes[p], P5)) >>> 0, 11), P1); p += 1; }
  h ^= h >>> 15; h = mul(h, P2); h ^= h >>> 13; h = mul(h, P3); h ^= h >>> 16;
  return h >>> 0;
}

export function decode(input, { tiers = 0 } = {}) { // tiers: quality tiers to play (0 = all, §Tiers)
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u8 = (o) => view.getUint8(o);
  const u16 = (o) => view.getUint16(o, true);
  const u32 = (o) => view.getUint32(o, true);
  const i32 = (o) => view.getInt32(o, true);
  const f32 = (o) => view.getFloat32(o, true);
  const f64 = (o) => view.getFloat64(o, true);
  const size = bytes.length;

  // Blob header
  if (size < 32) fail('blob shorter than its header');
  if (u8(0) !== 0x53 || u8(1) !== 0x4e || u8(2) !== 0x45 || u8(3) !== 0x57) fail('bad magic');
  const version = u16(4);
  if (version !== 1 && version !== 2) fail(`unknown format version ${version}`);
  const v2 = version === 2, align = v2 ? 4 : 16;
  if (u16(6) !== 32) fail('header size is not 32');
  const total = u32(8);
  if (total !== size || total % align !== 0) fail('Total_size does not match');
  const resident = v2 ? u32(20) : 0; // §Blob header: 0 = not paged
  for (let i = v2 ? 24 : 20; i < 32; ++i) if (u8(i) !== 0) fail('reserved header byte');
  if (resident && (resident % 4 || resident < 40 || resident >= total)) fail('Resident_size');
  const residentEnd = resident || total;
  if (xxh32(bytes, 16, residentEnd) !== u32(12)) fail('checksum mismatch');
  const clipCount = u32(16);
  if (clipCount < 1 || 32 + 4 * clipCount > residentEnd) fail('bad Clip_count');
  for (let i = 0; i < 8; ++i) if (u8(residentEnd - 1 - i) !== 0) fail('tail padding is not zero');

  const clips = [];
  let nextPage = residentEnd; // §Pages: the pages of every clip follow the resident part, in order
  for (let c = 0; c < clipCount; ++c) clips.push(readClip(u32(32 + 4 * c), c));
  if (resident && nextPage !== total) fail('pages do not end the blob');
  return { clips };

  function readClip(start, index) {
    const headerSize = v2 ? 36 : 64;
    if (start % align !== 0 || start < 32 + 4 * clipCount || start + headerSize > residentEnd - 8) fail(`clip ${index} offset`);
    const at = (o) => start + o;
    const clipSize = u32(at(0));
    if (clipSize < headerSize || start + clipSize > residentEnd - 8) fail(`clip ${index} size`);
    if (index + 1 < clipCount && u32(32 + 4 * (index + 1)) < start + clipSize) fail('clips overlap');
    const flags = u32(at(4));
    if (flags & ~(v2 ? 0x1fff : 0x1f)) fail('reserved clip flags');
    const timeMap = (flags & 2048) !== 0; // §Time map (bit 12, Over_bound, changes nothing in decoding)
    const halfRanges = (flags & 256) !== 0; // §Clip ranges: binary16 values
    const shortConstants = (flags & 512) !== 0; // §Constants: a constant's values in 3 bytes
    const midpoint = (flags & 1024) !== 0; // §Midpoint knots: 5-byte track descriptors with shifts
    const paged = (flags & 32) !== 0, trackRounding = (flags & 64) !== 0, tiered = (flags & 128) !== 0;
    if (tiered && !paged) fail('Tiered without Paged');
    if (paged !== (resident !== 0)) fail('Paged flag does not match the blob');
    const looping = (flags & 1) !== 0, clipRounding = (flags >> 1) & 3, hasMetadata = (flags & 8) !== 0;
    const lastRepeatsFirst = (flags & 16) !== 0;
    if (lastRepeatsFirst && !looping) fail('Last_repeats_first without Looping');
    const sampleRate = f64(at(8)), unitScale = f64(at(16));
    if (!(sampleRate > 0 && isFinite(sampleRate) && unitScale > 0 && isFinite(unitScale))) fail('rate or unit scale');
    const sampleCount = u32(at(24));
    let jointCount, scalarCount, trackCount, segmentCount, segmentLength, constantsOffset, rangesOffset, segmentsOffset;
    let metadataOffset = 0;
    if (v2) { // §Clip header: u16 counts, the rest derived
      jointCount = u16(at(28)); scalarCount = u16(at(30)); segmentLength = u16(at(32));
      if (u16(at(34)) !== 0) fail('reserved clip header field');
    } else { // §Version 1
      jointCount = u32(at(28)); scalarCount = u32(at(32)); trackCount = u32(at(36));
      segmentCount = u32(at(40)); segmentLength = u32(at(44));
      constantsOffset = u32(at(48)); rangesOffset = u32(at(52)); segmentsOffset = u32(at(56)); metadataOffset = u32(at(60));
    }
    if (sampleCount < 1 || jointCount > 65535 || scalarCount > 65535 || jointCount + scalarCount < 1) fail('counts');
    if (segmentLength < 1 || segmentLength > 1024) fail('Segment_length');
    const storedCount = sampleCount + (looping ? 1 : 0);
    const wantSegments = storedCount - 1 === 0 ? 1 : Math.ceil((storedCount - 1) / segmentLength);
    if (v2) segmentCount = wantSegments;
    if (segmentCount !== wantSegments) fail('Segment_count');
    const lone = v2 && segmentCount === 1; // no segment ranges, 3-component rotation clip ranges

    // Descriptors (version 2: 1 byte, then the rounding bytes with Track_rounding; version 1: 2 bytes)
    const joints = [], scalars = [], tracks = [];
    const descSize = v2 ? 1 : 2, count = jointCount + scalarCount;
    const roundingAt = at(headerSize + count * descSize);
    const roundingOf = (i, b1) => {
      const r = v2 ? (trackRounding ? u8(roundingAt + i) : 15) : b1 & 15;
      if (r > 3 && r !== 15) fail('rounding');
      return r === 15 ? clipRounding : r;
    };
    let p = at(headerSize);
    for (let j = 0; j < jointCount; ++j, p += descSize) {
      const b0 = u8(p), b1 = v2 ? 0 : u8(p + 1);
      if (!v2 && (b0 >> 6 || b1 >> 6)) fail('reserved descriptor bits');
      const dropped = v2 ? b0 >> 6 : (b1 >> 4) & 3;
      if (v2 && dropped && ((b0 & 3) === 0 || (b0 & 3) === 3)) fail('Constant_dropped of a rotation that is not constant');
      joints.push({ kinds: [b0 & 3, (b0 >> 2) & 3, (b0 >> 4) & 3], rounding: roundingOf(j, b1),
                    dropped, tracks: [-1, -1, -1], constants: [null, null, null] });
    }
    for (let s = 0; s < scalarCount; ++s, p += descSize) {
      const b0 = u8(p), b1 = v2 ? 0 : u8(p + 1);
      if (b0 >> 4 || (!v2 && b1 >> 4)) fail('reserved scalar descriptor bits');
      scalars.push({ kind: b0 & 3, components: ((b0 >> 2) & 3) + 1, rounding: roundingOf(jointCount + s, b1),
                     track: -1, constant: null });
    }
    // Animated tracks, in order: each joint's rotation, translation, scale; then scalars.
    joints.forEach((joint, j) => joint.kinds.forEach((kind, sub) => {
      if (kind === 3) { joint.tracks[sub] = tracks.length; tracks.push({ type: sub, components: 3, owner: j, rounding: joint.rounding }); }
    }));
    scalars.forEach((sc, s) => {
      if (sc.kind === 3) { sc.track = tracks.length; tracks.push({ type: 3, components: sc.components, owner: s, rounding: sc.rounding }); }
    });
    if (v2) trackCount = tracks.length;
    if (tracks.length !== trackCount) fail('Track_count');
    const storedComponents = tracks.reduce((n, t) => n + t.components, 0);

    // Constants
    const descEnd = headerSize + count * descSize * (v2 && trackRounding ? 2 : 1);
    if (v2) constantsOffset = (descEnd + 3) & ~3;
    if (constantsOffset % 4 || constantsOffset < descEnd || constantsOffset - descEnd >= 4) fail('Constants_offset');
    let q = at(constantsOffset);
    const readFloat = () => { const v = f32(q); if (!isFinite(v)) fail('non-finite constant'); q += 4; return v; };
    // a 16-bit range value: the high half of an f32 (its low 16 bits zero)
    const readHalf = () => {
      const v = new Float32Array(new Uint32Array([u16(q) * 65536]).buffer)[0];
      if (!isFinite(v)) fail('non-finite range');
      q += 2;
      return v;
    };
    // a 24-bit constant (Short_constants): the high 3 bytes of an f32
    const readShort = () => {
      const v = new Float32Array(new Uint32Array([(bytes[q] << 8 | bytes[q + 1] << 16 | bytes[q + 2] << 24) >>> 0]).buffer)[0];
      if (!isFinite(v)) fail('non-finite constant');
      q += 3;
      return v;
    };
    const readConstant = (kind) => (kind === 2 && shortConstants ? readShort : readFloat);
    for (const joint of joints) {
      joint.kinds.forEach((kind, sub) => {
        if (kind !== 1 && kind !== 2) return;
        const read = readConstant(kind), three = [read(), read(), read()];
        joint.constants[sub] = sub === 0 ? rebuild(three, joint.dropped) : three;
      });
    }
    for (const sc of scalars) if (sc.kind === 1 || sc.kind === 2) sc.constant = Array.from({ length: sc.components }, readConstant(sc.kind));
    for (; (q - start) % 4; q++) if (bytes[q] !== 0) fail('constants padding'); // to 4 bytes
    if (v2) rangesOffset = q - start;
    if (q !== at(rangesOffset)) fail('Ranges_offset');
    for (const t of tracks) {
      const r = t.type === 0 ? (lone ? 3 : 4) : t.components; // §Clip ranges, lone segment
      t.min = []; t.extent = [];
      const read = halfRanges ? readHalf : readFloat;
      for (let i = 0; i < r; ++i) t.min.push(read());
      for (let i = 0; i < r; ++i) t.extent.push(read());
    }
    // §Time map: Mark_count marks (f32 Time, u32 Sample) after the clip ranges
    const marks = [];
    if (timeMap) {
      if (!v2 || looping) fail('Time_map');
      const n = u32(q);
      if (n < 2 || n > storedCount || q + 4 + 8 * n - start > clipSize) fail('Mark_count');
      for (let i = 0; i < n; ++i) {
        const time = f32(q + 4 + 8 * i), sample = u32(q + 8 + 8 * i);
        const prev = marks[i - 1];
        if (!(isFinite(time) && time >= 0) || (i === 0 ? sample !== 0 : !(sample > prev.sample && time > prev.time))) fail('time mark order');
        marks.push({ time, sample });
      }
      if (marks[n - 1].sample !== storedCount - 1) fail('last time mark');
      q += 4 + 8 * n;
    }
    if (v2) segmentsOffset = q - start;
    if (q !== at(segmentsOffset)) fail('Segments_offset');

    // Segment table and segments, or the page table and the pages (§Pages)
    let segments = [];
    const rangeBytes = lone ? 0 : 2 * storedComponents;
    const descriptorBytes = midpoint ? 5 : 3;
    const headerBytes = descriptorBytes * trackCount + rangeBytes + 4 * Math.ceil(trackCount / 8);
    let tableEnd;
    if (paged) {
      const pageCount = u32(at(segmentsOffset));
      tableEnd = segmentsOffset + 4 + 20 * pageCount;
      if (tableEnd > clipSize) fail('page table exceeds the clip');
      // §Tiers: the tier table follows the page table; tier k owns pages firstPages[k] ..
      let tierCount = 1;
      const firstPages = [0];
      if (tiered) {
        if (tableEnd + 4 > clipSize) fail('tier table exceeds the clip');
        tierCount = u32(at(tableEnd));
        if (tierCount < 2 || tierCount > 8 || tableEnd + 4 + 12 * tierCount > clipSize) fail('Tier_count');
        for (let k = 0; k < tierCount; ++k) {
          const e = at(tableEnd + 4 + 12 * k), bound = f32(e + 4), error = f32(e + 8);
          if (k === 0 ? u32(e) !== 0 : u32(e) <= firstPages[k - 1]) fail('tier First_page');
          if (k > 0) firstPages.push(u32(e));
          if (!(bound >= 0 && isFinite(bound) && error >= 0 && isFinite(error))) fail('tier bound');
        }
        tableEnd += 4 + 12 * tierCount;
      }
      if (pageCount < 1 || pageCount > segmentCount * tierCount) fail('Page_count');
      const tierSegments = [];
      for (let pg = 0; pg < pageCount; ++pg) {
        if (firstPages.includes(pg)) { // a tier starts: its pages hold every segment again
          if (pg > 0 && segments.length !== segmentCount) fail('pages do not hold every segment');
          segments = [];
          tierSegments.push(segments);
        }
        const e = at(segmentsOffset + 4 + 20 * pg);
        const firstSegment = u32(e), n = u32(e + 4), offset = u32(e + 8), pageSize = u32(e + 12), checksum = u32(e + 16);
        if (firstSegment !== segments.length || n < 1 || firstSegment + n > segmentCount) fail(`page ${pg} segments`);
        if (offset !== nextPage || offset % 4 || pageSize % 4 || pageSize < 4 * (n + 1) + 8 || offset + pageSize > total)
          fail(`page ${pg} offset or size`);
        if (xxh32(bytes, offset, offset + pageSize, pg) !== checksum) fail(`page ${pg} checksum`);
        let expect = 4 * (n + 1);
        for (let k = 0; k < n; ++k) {
          const begin = u32(offset + 4 * k), end = u32(offset + 4 * (k + 1));
          if (begin !== expect || end < begin || end > pageSize - 8) fail(`page ${pg} segment offsets`);
          segments.push(readSegment(firstSegment + k, offset + begin, offset + end));
          expect = end;
        }
        if (pageSize - expect < 8 || pageSize - expect >= 12) fail(`page ${pg} tail`);
        for (let i = offset + expect; i < offset + pageSize; ++i) if (u8(i) !== 0) fail(`page ${pg} tail is not zero`);
        nextPage = offset + pageSize;
      }
      if (segments.length !== segmentCount || tierSegments.length !== tierCount) fail('pages do not hold every segment');
      // play the finest tier asked for (every page is here when decoding a whole blob)
      segments = tierSegments[(tiers > 0 && tiers < tierCount ? tiers : tierCount) - 1];
    } else {
      for (let s = 0; s < segmentCount; ++s) {
        const begin = u32(at(segmentsOffset + 4 * s)), end = u32(at(segmentsOffset + 4 * (s + 1)));
        const expect = s === 0 ? segmentsOffset + 4 * (segmentCount + 1) : segments[s - 1].end - start;
        if (begin !== expect || end < begin || end > clipSize) fail(`segment ${s} offsets`);
        segments.push(readSegment(s, at(begin), at(end)));
      }
      tableEnd = segments[segmentCount - 1].end - start;
    }
    if (v2 && hasMetadata) metadataOffset = (tableEnd + 3) & ~3;
    if (!hasMetadata && (tableEnd !== clipSize || metadataOffset !== 0)) fail('clip does not end at its last segment');
    if (hasMetadata && (metadataOffset < tableEnd || metadataOffset - tableEnd >= 4 || metadataOffset % 4 || metadataOffset >= clipSize))
      fail('Metadata_offset');

    // Segment s in blob bytes [base, end).
    function readSegment(s, base, end) {
      const first = s * segmentLength;
      const length = Math.min(segmentLength, storedCount - 1 - first);
      const begin = base;
      const rangesAt = base + descriptorBytes * trackCount, groupsAt = rangesAt + rangeBytes, data = base + headerBytes;
      let bits = 0, slot = 0;
      const seg = { begin, end, length, tracks: [] };
      tracks.forEach((t, i) => {
        const dp = base + descriptorBytes * i;
        const d = u8(dp) | (u8(dp + 1) << 8) | (u8(dp + 2) << 16);
        if (d >> 22) fail('reserved track descriptor bits');
        // bits 24-39 of a 5-byte descriptor: Shift_k in bits 24 + 4k (§Midpoint knots)
        const shiftBits = midpoint ? u8(dp + 3) | (u8(dp + 4) << 8) : 0;
        const field = (k) => (d >> (5 * k)) & 31, shift = (k) => (shiftBits >> (4 * k)) & 15;
        const widths = [], rwidths = [], n = t.components;
        let raw = 0, shifted = false;
        for (let k = 0; k < 4; ++k) {
          if (k >= n && shift(k) !== 0) fail('shift for a missing component'); // a rotation's slot 3 too
          if (t.type === 0 && k === 3) continue; // Dropped, not a width
          const w = field(k);
          if (k >= n) { if (w !== 0) fail('width for a missing component'); continue; }
          if (w > 24 && w !== 31) fail('invalid width code');
          if (shift(k) > (w === 31 ? 0 : w)) fail('shift exceeds the width'); // and none for a raw component
          if (w === 31) raw++;
          if (shift(k)) shifted = true;
          widths.push(w);
          rwidths.push((w === 31 ? 32 : w) - shift(k));
        }
        const dropped = t.type === 0 ? field(3) : 0;
        if (t.type === 0 && (dropped > 3 || (raw && (raw !== 3 || dropped !== 0)))) fail('rotation descriptor');
        // The document does not say how a raw component of a predicted knot would be stored or
        // rebuilt (its width_k, a midpoint of float bit patterns), so shifts and raw components
        // never share a track here.
        if (shifted && raw) fail('shift in a track with raw components');
        const decimation = (d >> 20) & 3;
        const knots = Math.ceil(length / (1 << decimation)) + 1;
        const rawRotation = t.type === 0 && raw === 3;
        const knotBits = rawRotation ? 128 : widths.reduce((a, w) => a + (w === 31 ? 32 : w), 0);
        // a track with some Shift_k > 0 stores its odd knots but the last as residuals
        const predicted = shifted ? Math.floor((knots - 1) / 2) : 0;
        const residualBits = rwidths.reduce((a, w) => a + w, 0);
        if (i % 8 === 0 && u32(groupsAt + 4 * (i / 8)) !== bits) fail('group offset');
        const ranges = [];
        for (let k = 0; k < n; ++k, ++slot) ranges.push(lone ? [0, 255] : [u8(rangesAt + 2 * slot), u8(rangesAt + 2 * slot + 1)]);
        seg.tracks.push({ widths, dropped, decimation, knots, knotBits, rawRotation, ranges, bitpos: bits,
                          shifted, predicted, rwidths, residualBits });
        bits += (knots - predicted) * knotBits + predicted * residualBits;
      });
      if (headerBytes + Math.ceil(bits / 8) !== end - begin) fail(`segment ${s} size`);
      seg.data = data;
      return seg;
    }

    // Bit stream: LSB-first (docs/format.md §Conventions).
    function readBits(dataStart, pos, w) {
      let v = 0;
      for (let i = 0; i < w; ++i) {
        const bit = pos + i;
        if ((u8(dataStart + (bit >>> 3)) >> (bit & 7)) & 1) v += 2 ** i;
      }
      return v;
    }

    // §Dequantization
    function dequantize(t, seg, st, slot, q) {
      const w = st.widths[slot];
      if (w === 31) return new Float32Array(new Uint32Array([q]).buffer)[0];
      // the range of component c (of stored slot `slot` for a lone segment's rotation, §Clip ranges)
      const c = t.type === 0 && !lone ? slot + (slot >= st.dropped ? 1 : 0) : slot;
      const [qmin, qext] = st.ranges[slot];
      const lo = f(t.min[c] + f(t.extent[c] * f(qmin / 255)));
      const ext = f(t.extent[c] * f(qext / 255));
      const step = w === 0 ? 0 : f(ext * f(1 / (2 ** w - 1)));
      // (float)q, q read as a signed 32-bit integer: exact below 2^24; a wrapped midpoint value of a
      // hostile blob rounds to nearest
      return f(lo + f(f(q | 0) * step));
    }

    // The stored values of the knot in plain slot j (knot j of a plain track), slot by slot.
    function plainCodes(seg, st, j) {
      let bit = st.bitpos + j * st.knotBits;
      return st.widths.map((w) => {
        const bits = w === 31 ? 32 : w;
        const q = readBits(seg.data, bit, bits);
        bit += bits;
        return q;
      });
    }

    // §Midpoint knots: plain knots come first, in plain slot (i + 1) >> 1; predicted knot 2g + 1 is
    // the rounded-up midpoint of plain slots g and g + 1 plus its biased residual, in uint32.
    function knotCodes(seg, st, k) {
      if (!st.shifted) return plainCodes(seg, st, k);
      if (k % 2 === 0 || k === st.knots - 1) return plainCodes(seg, st, (k + 1) >> 1);
      const g = (k - 1) / 2, a = plainCodes(seg, st, g), b = plainCodes(seg, st, g + 1);
      let bit = st.bitpos + (st.knots - st.predicted) * st.knotBits + g * st.residualBits;
      return st.rwidths.map((rw, slot) => {
        const r = readBits(seg.data, bit, rw);
        bit += rw;
        return (((a[slot] + b[slot] + 1) >>> 1) + r - (rw > 0 ? 2 ** (rw - 1) : 0)) >>> 0;
      });
    }

    function knotValues(t, seg, st, k) {
      if (st.rawRotation) {
        const pos = st.bitpos + k * st.knotBits;
        return [0, 1, 2, 3].map((i) => new Float32Array(new Uint32Array([readBits(seg.data, pos + 32 * i, 32)]).buffer)[0]);
      }
      const out = knotCodes(seg, st, k).map((q, slot) => dequantize(t, seg, st, slot, q));
      return t.type === 0 ? rebuild(out, st.dropped) : out;
    }

    function sampleTrack(t, key) {
      const step = snap(key, 1e-6); // floor, ceil and nearest snap wider than interpolation (step 1)
      const rounded = [key, Math.floor(step), Math.min(Math.ceil(step), storedCount - 1),
                       Math.min(Math.floor(step + 0.5), storedCount - 1)][t.rounding];
      const s = Math.min(Math.floor(Math.floor(rounded) / segmentLength), segmentCount - 1);
      const seg = segments[s];
      const st = seg.tracks[tracks.indexOf(t)];
      const u = f(rounded - s * segmentLength);
      let i = st.knots - 1, alpha = 0; // Length 0 or u >= Length: the last knot exactly
      if (seg.length > 0 && u < seg.length) {
        const S = 1 << st.decimation;
        i = Math.min(Math.floor(f(u / S)), st.knots - 2);
        const p0 = i * S, p1 = Math.min((i + 1) * S, seg.length);
        alpha = f(f(u - p0) / f(p1 - p0));
        alpha = alpha < 0 ? 0 : alpha > 1 ? 1 : alpha;
      }
      const a = knotValues(t, seg, st, i), b = knotValues(t, seg, st, Math.min(i + 1, st.knots - 1));
      if (st.rawRotation && alpha === 0) return a; // raw rotation knot as stored (step 5 exception)
      return t.type === 0 ? nlerp(a, b, alpha) : a.map((v, k) => f(v + f(f(b[k] - v) * alpha)));
    }

    // Sampling semantics, steps 1-6
    function snap(key, tolerance) {
      const nearest = Math.floor(key + 0.5);
      return Math.abs(key - nearest) <= tolerance * Math.max(1, nearest) ? nearest : key;
    }

    function keyForTime(t) {
      const last = storedCount - 1;
      if (marks.length) { // §Sampling semantics step 1 with a time map (binary64)
        if (!(t > marks[0].time)) return 0;
        if (t >= marks[marks.length - 1].time) return last;
        let m = 0;
        while (marks[m + 1].time <= t) m++;
        const a = marks[m], b = marks[m + 1];
        return snap(a.sample + ((t - a.time) * (b.sample - a.sample)) / (b.time - a.time), 1e-12);
      }
      const key = t * sampleRate;
      if (!(key > 0)) return 0;
      if (key > last) return last;
      return snap(key, 1e-12);
    }

    function samplePose(t) {
      const key = keyForTime(t);
      const pose = new Float32Array(jointCount * 10);
      const identity = [[0, 0, 0, 1], [0, 0, 0], [1, 1, 1]];
      joints.forEach((joint, j) => {
        [0, 1, 2].forEach((sub) => {
          const kind = joint.kinds[sub];
          const value = kind === 0 ? identity[sub] : kind === 3 ? sampleTrack(tracks[joint.tracks[sub]], key) : joint.constants[sub];
          pose.set(value, j * 10 + [0, 4, 7][sub]);
        });
      });
      const scalarOut = new Float32Array(scalars.reduce((n, sc) => n + sc.components, 0));
      let o = 0;
      for (const sc of scalars) {
        const value = sc.kind === 0 ? new Array(sc.components).fill(0) : sc.kind === 3 ? sampleTrack(tracks[sc.track], key) : sc.constant;
        scalarOut.set(value, o);
        o += sc.components;
      }
      return { pose, scalars: scalarOut };
    }

    return { sampleRate, sampleCount: sampleCount + (lastRepeatsFirst ? 1 : 0), jointCount, scalarCount, looping, segmentCount, samplePose,
             marks, duration: marks.length ? marks[marks.length - 1].time : (storedCount - 1) / sampleRate };
  }
}

// §Rebuilding a rotation
function rebuild(three, dropped) {
  const [a, b, c] = three;
  const r = f(1 - f(f(f(a * a) + f(b * b)) + f(c * c)));
  const m = f(Math.sqrt(r > 0 ? r : 0));
  const q = [a, b, c];
  q.splice(dropped, 0, m);
  return q;
}

// Normalized lerp on the shortest arc, in binary32 (§Sampling semantics, step 5).
function nlerp(a, b, t) {
  const dot = f(f(f(f(a[0] * b[0]) + f(a[1] * b[1])) + f(a[2] * b[2])) + f(a[3] * b[3]));
  const s = dot < 0 ? -t : t, u = f(1 - t);
  const r = a.map((v, i) => f(f(v * u) + f(b[i] * s)));
  const len2 = f(f(f(f(r[0] * r[0]) + f(r[1] * r[1])) + f(r[2] * r[2])) + f(r[3] * r[3]));
  if (!(len2 > 0)) return [0, 0, 0, 1];
  const inv = f(1 / f(Math.sqrt(len2)));
  return r.map((v) => f(v * inv));
}
