// sinew — reference decoder for docs/format.md, written from the document alone (like zstd's
// educational decoder). Readable, not fast. Every binary32 operation of the spec is rounded with
// Math.fround, so results are bit-identical to any compliant decoder; tests check exactly that.
//
//   import { decode } from './reference_decoder.mjs';
//   const blob = decode(bytes);            // throws Error('...') on anything the spec rejects
//   blob.clips[0].samplePose(t)            // -> { pose: Float32Array(joints * 10), scalars: Float32Array }
//
// Pose layout per joint: rotation x y z w, translation x y z, scale x y z (like sinew_qvv).

const f = Math.fround;

function fail(message) {
  throw new Error(`sinew reference decoder: ${message}`);
}

// XXH32, seed 0 (docs/format.md §Checksum).
function xxh32(bytes, start, end) {
  const P1 = 2654435761, P2 = 2246822519, P3 = 3266489917, P4 = 668265263, P5 = 374761393;
  const rotl = (x, r) => ((x << r) | (x >>> (32 - r))) >>> 0;
  const mul = (a, b) => Math.imul(a, b) >>> 0;
  const u32 = (i) => (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24)) >>> 0;
  const round = (acc, input) => mul(rotl((acc + mul(input, P2)) >>> 0, 13), P1);
  let p = start, h;
  const size = end - start;
  if (size >= 16) {
    let v1 = (P1 + P2) >>> 0, v2 = P2, v3 = 0, v4 = (0 - P1) >>> 0;
    while (p + 16 <= end) {
      v1 = round(v1, u32(p)); v2 = round(v2, u32(p + 4)); v3 = round(v3, u32(p + 8)); v4 = round(v4, u32(p + 12));
      p += 16;
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) >>> 0;
  } else {
    h = P5;
  }
  h = (h + size) >>> 0;
  while (p + 4 <= end) { h = mul(rotl((h + mul(u32(p), P3)) >>> 0, 17), P4); p += 4; }
  while (p < end) { h = mul(rotl((h + mul(bytes[p], P5)) >>> 0, 11), P1); p += 1; }
  h ^= h >>> 15; h = mul(h, P2); h ^= h >>> 13; h = mul(h, P3); h ^= h >>> 16;
  return h >>> 0;
}

export function decode(input) {
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
  if (u16(4) !== 1) fail(`unknown format version ${u16(4)}`);
  if (u16(6) !== 32) fail('header size is not 32');
  const total = u32(8);
  if (total !== size || total % 16 !== 0) fail('Total_size does not match');
  for (let i = 20; i < 32; ++i) if (u8(i) !== 0) fail('reserved header byte');
  if (xxh32(bytes, 16, total) !== u32(12)) fail('checksum mismatch');
  const clipCount = u32(16);
  if (clipCount < 1 || 32 + 4 * clipCount > total) fail('bad Clip_count');
  for (let i = 0; i < 8; ++i) if (u8(size - 1 - i) !== 0) fail('tail padding is not zero');

  const clips = [];
  for (let c = 0; c < clipCount; ++c) clips.push(readClip(u32(32 + 4 * c), c));
  return { clips };

  function readClip(start, index) {
    if (start % 16 !== 0 || start < 32 + 4 * clipCount || start + 64 > size - 8) fail(`clip ${index} offset`);
    const at = (o) => start + o;
    const clipSize = u32(at(0));
    if (clipSize < 64 || start + clipSize > size - 8) fail(`clip ${index} size`);
    const flags = u32(at(4));
    if (flags & ~0x1f) fail('reserved clip flags');
    const looping = (flags & 1) !== 0, clipRounding = (flags >> 1) & 3, hasMetadata = (flags & 8) !== 0;
    const lastRepeatsFirst = (flags & 16) !== 0;
    if (lastRepeatsFirst && !looping) fail('Last_repeats_first without Looping');
    const sampleRate = f64(at(8)), unitScale = f64(at(16));
    if (!(sampleRate > 0 && isFinite(sampleRate) && unitScale > 0 && isFinite(unitScale))) fail('rate or unit scale');
    const sampleCount = u32(at(24)), jointCount = u32(at(28)), scalarCount = u32(at(32));
    const trackCount = u32(at(36)), segmentCount = u32(at(40)), segmentLength = u32(at(44));
    const constantsOffset = u32(at(48)), rangesOffset = u32(at(52)), segmentsOffset = u32(at(56));
    if (sampleCount < 1 || jointCount > 65535 || scalarCount > 65535 || jointCount + scalarCount < 1) fail('counts');
    if (segmentLength < 1 || segmentLength > 1024) fail('Segment_length');
    const storedCount = sampleCount + (looping ? 1 : 0);
    const wantSegments = storedCount - 1 === 0 ? 1 : Math.ceil((storedCount - 1) / segmentLength);
    if (segmentCount !== wantSegments) fail('Segment_count');

    // Descriptors
    const joints = [], scalars = [], tracks = [];
    let p = at(64);
    for (let j = 0; j < jointCount; ++j, p += 2) {
      const b0 = u8(p), b1 = u8(p + 1);
      if (b0 >> 6 || b1 >> 6) fail('reserved descriptor bits');
      const rounding = b1 & 15;
      if (rounding > 3 && rounding !== 15) fail('rounding');
      joints.push({ kinds: [b0 & 3, (b0 >> 2) & 3, (b0 >> 4) & 3], rounding: rounding === 15 ? clipRounding : rounding,
                    dropped: (b1 >> 4) & 3, tracks: [-1, -1, -1], constants: [null, null, null] });
    }
    for (let s = 0; s < scalarCount; ++s, p += 2) {
      const b0 = u8(p), b1 = u8(p + 1);
      if (b0 >> 4 || b1 >> 4) fail('reserved scalar descriptor bits');
      const rounding = b1 & 15;
      if (rounding > 3 && rounding !== 15) fail('rounding');
      scalars.push({ kind: b0 & 3, components: ((b0 >> 2) & 3) + 1, rounding: rounding === 15 ? clipRounding : rounding,
                     track: -1, constant: null });
    }
    // Animated tracks, in order: each joint's rotation, translation, scale; then scalars.
    joints.forEach((joint, j) => joint.kinds.forEach((kind, sub) => {
      if (kind === 3) { joint.tracks[sub] = tracks.length; tracks.push({ type: sub, components: 3, owner: j, rounding: joint.rounding }); }
    }));
    scalars.forEach((sc, s) => {
      if (sc.kind === 3) { sc.track = tracks.length; tracks.push({ type: 3, components: sc.components, owner: s, rounding: sc.rounding }); }
    });
    if (tracks.length !== trackCount) fail('Track_count');
    const storedComponents = tracks.reduce((n, t) => n + t.components, 0);

    // Constants
    const descEnd = 64 + 2 * (jointCount + scalarCount);
    if (constantsOffset % 4 || constantsOffset < descEnd || constantsOffset - descEnd >= 4) fail('Constants_offset');
    let q = at(constantsOffset);
    const readFloat = () => { const v = f32(q); if (!isFinite(v)) fail('non-finite constant'); q += 4; return v; };
    for (const joint of joints) {
      joint.kinds.forEach((kind, sub) => {
        if (kind !== 1 && kind !== 2) return;
        const three = [readFloat(), readFloat(), readFloat()];
        joint.constants[sub] = sub === 0 ? rebuild(three, joint.dropped) : three;
      });
    }
    for (const sc of scalars) if (sc.kind === 1 || sc.kind === 2) sc.constant = Array.from({ length: sc.components }, readFloat);
    if (q !== at(rangesOffset)) fail('Ranges_offset');
    for (const t of tracks) {
      const r = t.type === 0 ? 4 : t.components;
      t.min = []; t.extent = [];
      for (let i = 0; i < r; ++i) t.min.push(readFloat());
      for (let i = 0; i < r; ++i) t.extent.push(readFloat());
    }
    if (q !== at(segmentsOffset)) fail('Segments_offset');

    // Segment table and segments
    const segments = [];
    const headerBytes = 3 * trackCount + 2 * storedComponents + 4 * Math.ceil(trackCount / 8);
    for (let s = 0; s < segmentCount; ++s) {
      const begin = u32(at(segmentsOffset + 4 * s)), end = u32(at(segmentsOffset + 4 * (s + 1)));
      const expect = s === 0 ? segmentsOffset + 4 * (segmentCount + 1) : segments[s - 1].end;
      if (begin !== expect || end < begin || end > clipSize) fail(`segment ${s} offsets`);
      segments.push(readSegment(s, begin, end));
    }
    const lastEnd = segments[segmentCount - 1].end;
    if (!hasMetadata && lastEnd !== clipSize) fail('clip does not end at its last segment');

    function readSegment(s, begin, end) {
      const first = s * segmentLength;
      const length = Math.min(segmentLength, storedCount - 1 - first);
      const base = at(begin);
      const rangesAt = base + 3 * trackCount, groupsAt = rangesAt + 2 * storedComponents, data = base + headerBytes;
      let bits = 0, slot = 0;
      const seg = { begin, end, length, tracks: [] };
      tracks.forEach((t, i) => {
        const d = u8(base + 3 * i) | (u8(base + 3 * i + 1) << 8) | (u8(base + 3 * i + 2) << 16);
        if (d >> 22) fail('reserved track descriptor bits');
        const field = (k) => (d >> (5 * k)) & 31;
        const widths = [], n = t.components;
        let raw = 0;
        for (let k = 0; k < (t.type === 0 ? 3 : 4); ++k) {
          const w = field(k);
          if (k >= n) { if (w !== 0) fail('width for a missing component'); continue; }
          if (w > 24 && w !== 31) fail('invalid width code');
          if (w === 31) raw++;
          widths.push(w);
        }
        const dropped = t.type === 0 ? field(3) : 0;
        if (t.type === 0 && (dropped > 3 || (raw && (raw !== 3 || dropped !== 0)))) fail('rotation descriptor');
        const decimation = (d >> 20) & 3;
        const knots = Math.ceil(length / (1 << decimation)) + 1;
        const rawRotation = t.type === 0 && raw === 3;
        const knotBits = rawRotation ? 128 : widths.reduce((a, w) => a + (w === 31 ? 32 : w), 0);
        if (i % 8 === 0 && u32(groupsAt + 4 * (i / 8)) !== bits) fail('group offset');
        const ranges = [];
        for (let k = 0; k < n; ++k, ++slot) ranges.push([u8(rangesAt + 2 * slot), u8(rangesAt + 2 * slot + 1)]);
        seg.tracks.push({ widths, dropped, decimation, knots, knotBits, rawRotation, ranges, bitpos: bits });
        bits += knots * knotBits;
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
      const c = t.type === 0 ? slot + (slot >= st.dropped ? 1 : 0) : slot;
      const [qmin, qext] = st.ranges[slot];
      const lo = f(t.min[c] + f(t.extent[c] * f(qmin / 255)));
      const ext = f(t.extent[c] * f(qext / 255));
      const step = w === 0 ? 0 : f(ext * f(1 / (2 ** w - 1)));
      return f(lo + f(q * step));
    }

    function knotValues(t, seg, st, k) {
      const pos = st.bitpos + k * st.knotBits;
      if (st.rawRotation) {
        return [0, 1, 2, 3].map((i) => new Float32Array(new Uint32Array([readBits(seg.data, pos + 32 * i, 32)]).buffer)[0]);
      }
      const out = [];
      let bit = pos;
      st.widths.forEach((w, slot) => {
        const bits = w === 31 ? 32 : w;
        out.push(dequantize(t, seg, st, slot, readBits(seg.data, bit, bits)));
        bit += bits;
      });
      return t.type === 0 ? rebuild(out, st.dropped) : out;
    }

    function sampleTrack(t, key) {
      const rounded = [key, Math.floor(key), Math.min(Math.ceil(key), storedCount - 1),
                       Math.min(Math.floor(key + 0.5), storedCount - 1)][t.rounding];
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
    function keyForTime(t) {
      const last = storedCount - 1;
      let key = t * sampleRate;
      if (!(key > 0)) return 0;
      if (key > last) return last;
      const nearest = Math.floor(key + 0.5);
      if (Math.abs(key - nearest) <= 1e-6 * Math.max(1, nearest)) key = nearest;
      return key;
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
             duration: (storedCount - 1) / sampleRate };
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
