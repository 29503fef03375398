// sinew — reference decoder for docs/format.md, written from the document alone (like zstd's
// educational decoder). Readable, not fast. Every binary32 operation of the spec is rounded with
// Math.fround, so results are bit-identical to any compliant decoder; tests check exactly that.
//
//   import { decode } from './reference_decoder.mjs';
//   const blob = decode(bytes);            // format versions 1, 2 and 3; throws SinewDecodeError on
//                                          // anything the spec rejects (err.code names the field)
//   blob.clips[0].samplePose(t)            // -> { pose: Float32Array(nodes * 10), scalars: Float32Array }
//   blob.rig                               // version 3: counts, unit, parents, sources, rest, shells, names
//
// Pose layout per node: rotation x y z w, translation x y z, scale x y z (like sinew_qvv); scalars:
// every scalar track's components, in track order. A version-3 pose covers every rig node and scalar.
//
// Options: decode(bytes, { tiers, restPose, restScalars })
//   tiers        quality tiers to play, 0 = all (§Tiers)
//   restPose     rest values of the rig nodes (nodes * 10 floats, layout as above), used where the rig
//                has no `Rest` part (§Rest pose: a packed glTF's blob takes them from its document,
//                through rig.nodeSources)
//   restScalars  rest values of the rig's scalar components, where neither `Rest` nor `Scalar_rest` has them
// A clip that needs a rest value nobody gives decodes, but refuses to sample (code 'Rest_pose').
//
// A paged blob is decoded whole (its pages checked like the rest), or as its resident part alone:
// then every page-table entry is checked but sampling throws 'Page_missing'.

const f = Math.fround;

export class SinewDecodeError extends Error {
  constructor(code, message) {
    super(`sinew reference decoder: ${code}: ${message}`);
    this.name = 'SinewDecodeError';
    this.code = code; // the docs/format.md field or rule at fault ('Checksum', 'Node_map', 'Rest', ...)
  }
}

function fail(code, message) {
  throw new SinewDecodeError(code, message);
}

const align4 = (x) => Math.ceil(x / 4) * 4;

// The float32 whose bits are u (raw components, 16-bit ranges, 24-bit constants).
const bitsBuffer = new DataView(new ArrayBuffer(4));
function floatOfBits(u) {
  bitsBuffer.setUint32(0, u >>> 0);
  return bitsBuffer.getFloat32(0);
}

// XXH32 (docs/format.md §Checksum: seed 0; §Pages: seed = page index).
export function xxh32(bytes, start, end, seed = 0) {
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

const SUB_NAMES = ['rotation', 'translation', 'scale'];
const IDENTITY = [[0, 0, 0, 1], [0, 0, 0], [1, 1, 1]];

export function decode(input, { tiers = 0, restPose = null, restScalars = null } = {}) {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = bytes.length;
  // Every read is checked against the blob first, so a hostile blob gets a named error, never a RangeError.
  const check = (offset, n) => { if (offset < 0 || offset + n > size) fail('Total_size', `read of ${n} bytes at ${offset} past the blob`); };
  const u8 = (o) => (check(o, 1), view.getUint8(o));
  const u16 = (o) => (check(o, 2), view.getUint16(o, true));
  const u32 = (o) => (check(o, 4), view.getUint32(o, true));
  const f32 = (o) => (check(o, 4), view.getFloat32(o, true));
  const f64 = (o) => (check(o, 8), view.getFloat64(o, true));
  const zeros = (from, to, code, what) => { for (let i = from; i < to; ++i) if (u8(i) !== 0) fail(code, `${what} is not zero (byte ${i})`); };

  // §Blob header (version 3) and §Version 2 / §Version 1 (32 bytes)
  if (size < 20) fail('Total_size', 'blob shorter than its header');
  if (u8(0) !== 0x53 || u8(1) !== 0x4e || u8(2) !== 0x45 || u8(3) !== 0x57) fail('Magic', 'bad magic');
  const version = u16(4);
  if (version < 1 || version > 3) fail('Format_version', `unknown format version ${version}`);
  const v3 = version === 3;
  let paged, restDefaults = false, headerSize, resident;
  const total = u32(8);
  if (v3) {
    const blobFlags = u16(6);
    if (blobFlags & ~3) fail('Blob_flags', 'reserved blob flag bits');
    paged = (blobFlags & 1) !== 0;
    restDefaults = (blobFlags & 2) !== 0;
    headerSize = paged ? 24 : 20;
    if (size < headerSize) fail('Total_size', 'blob shorter than its header');
    resident = paged ? u32(20) : 0;
    if (paged && (resident % 4 || resident >= total || resident < headerSize + 4)) fail('Resident_size', `Resident_size ${resident}`);
  } else {
    if (size < 32) fail('Total_size', 'blob shorter than its header');
    if (u16(6) !== 32) fail('Header_size', 'header size is not 32');
    resident = version === 2 ? u32(20) : 0; // 0 = not paged
    zeros(version === 2 ? 24 : 20, 32, 'Blob_header', 'reserved header byte');
    paged = resident !== 0;
    if (paged && (resident % 4 || resident < 40 || resident >= total)) fail('Resident_size', `Resident_size ${resident}`);
    headerSize = 32;
  }
  const align = version === 1 ? 16 : 4;
  if (total % align !== 0) fail('Total_size', `Total_size ${total} is not a multiple of ${align}`);
  // The whole blob, or (paged, version 3) its resident part alone, whose pages come later.
  const pagesPresent = size === total;
  if (!pagesPresent && !(v3 && paged && size === resident)) fail('Total_size', `the blob is ${size} bytes, Total_size says ${total}`);
  const residentEnd = paged ? resident : total;
  if (xxh32(bytes, 16, residentEnd) !== u32(12)) fail('Checksum', 'checksum mismatch');
  const clipCount = u32(16);
  const clipTable = headerSize;
  if (clipCount < 1 || clipTable + 4 * clipCount > residentEnd) fail('Clip_count', `Clip_count ${clipCount}`);
  if (!v3) zeros(residentEnd - 8, residentEnd, 'Tail_padding', 'tail padding'); // §Version 2

  // Version 3: clip c starts right after the clip table or at align4 of the end of clip c - 1; the rig
  // follows the last clip (§Blob header, §Rig). Version 1 and 2 clips end before the tail padding.
  const clipStarts = [];
  let rig = null;
  if (v3) {
    let expect = clipTable + 4 * clipCount;
    for (let c = 0; c < clipCount; ++c) {
      if (u32(clipTable + 4 * c) !== expect) fail('Clip_offset', `clip ${c} offset ${u32(clipTable + 4 * c)}, expected ${expect}`);
      if (expect + 20 + 16 > residentEnd) fail('Clip_size', `clip ${c} does not fit before the rig`);
      const clipSize = u32(expect);
      if (clipSize < 20 || expect + clipSize + 16 > residentEnd) fail('Clip_size', `clip ${c} size ${clipSize}`);
      clipStarts.push(expect);
      expect = align4(expect + clipSize);
    }
    const clipsEnd = clipStarts[clipCount - 1] + u32(clipStarts[clipCount - 1]);
    rig = readRig(align4(clipsEnd));
    // §Blob header: the resident part ends at align4(max(Rig_end, Clips_end + 8)), zero after Rig_end
    const end = align4(Math.max(rig.end, clipsEnd + 8));
    if (residentEnd !== end) fail(paged ? 'Resident_size' : 'Total_size', `the resident part ends at ${residentEnd}, not ${end}`);
    zeros(rig.end, end, 'Tail', 'the tail');
  } else {
    for (let c = 0; c < clipCount; ++c) clipStarts.push(u32(clipTable + 4 * c));
  }

  const restValues = v3 && restDefaults ? resolveRest() : null;
  const clips = [];
  let nextPage = residentEnd; // §Pages: the pages of every clip follow the resident part, in order
  for (let c = 0; c < clipCount; ++c) clips.push(readClip(clipStarts[c], c));
  if (paged && nextPage !== total) fail('Offset', 'the pages do not end the blob');
  return { version, paged, residentSize: residentEnd, restDefaults, pagesPresent, rig, clips };

  // §Rig: counts, unit, scalar components, then the parts Rig_flags names, each padded to 4 bytes.
  function readRig(at) {
    if (at + 16 > residentEnd) fail('Rig', 'the rig does not fit in the resident part');
    const nodeCount = u16(at), scalarCount = u16(at + 2), flags = u16(at + 4);
    if (nodeCount + scalarCount < 1) fail('Node_count', 'a rig with neither nodes nor scalar tracks');
    if (flags & 0xff00) fail('Rig_flags', 'reserved rig flag bits');
    if (u16(at + 6) !== 0) fail('Rig', 'reserved rig field');
    const unitScale = f64(at + 8);
    if (!(unitScale > 0 && isFinite(unitScale))) fail('Unit_scale', `Unit_scale ${unitScale}`);
    const has = (bit) => (flags & (1 << bit)) !== 0;
    const wide = has(7);
    let p = at + 16;
    const need = (n, code) => { if (p + n > residentEnd) fail(code, 'the part does not fit in the resident part'); };
    const pad = (code) => { const end = align4(p); need(end - p, code); zeros(p, end, code, 'padding'); p = end; };
    const finite = (value, code) => { if (!isFinite(value)) fail(code, 'a non-finite value'); return value; };
    need(scalarCount, 'Scalar_components');
    const scalarComponents = [];
    for (let s = 0; s < scalarCount; ++s) {
      const b = u8(p + s);
      if (b & ~3) fail('Scalar_components', `reserved bits in scalar track ${s}`);
      scalarComponents.push((b & 3) + 1);
    }
    p += scalarCount;
    pad('Scalar_components');
    const scalarFloats = scalarComponents.reduce((n, c) => n + c, 0);
    const rig = { nodeCount, scalarCount, flags, unitScale, scalarComponents, parents: null, nodeSources: null,
                  rest: null, shells: null, scalarSources: null, names: null, scalarRest: null };
    if (has(0)) { // Parents
      need(2 * nodeCount, 'Parents');
      rig.parents = [];
      for (let j = 0; j < nodeCount; ++j) {
        const parent = u16(p + 2 * j);
        if (parent !== 0xffff && parent >= j) fail('Parents', `node ${j} has parent ${parent}`);
        rig.parents.push(parent === 0xffff ? -1 : parent);
      }
      p += 2 * nodeCount;
      pad('Parents');
    }
    if (has(1)) { // Node_sources
      const w = wide ? 4 : 2, none = wide ? 0xffffffff : 0xffff;
      need(w * nodeCount, 'Node_sources');
      rig.nodeSources = [];
      for (let j = 0; j < nodeCount; ++j) {
        const source = wide ? u32(p + 4 * j) : u16(p + 2 * j);
        rig.nodeSources.push(source === none ? -1 : source);
      }
      p += w * nodeCount;
      pad('Node_sources');
    }
    if (has(2)) { // Rest: f32[10] per node, then each scalar track's components
      need(40 * nodeCount + 4 * scalarFloats, 'Rest');
      const pose = new Float32Array(10 * nodeCount), scalars = new Float32Array(scalarFloats);
      for (let i = 0; i < pose.length; ++i, p += 4) pose[i] = finite(f32(p), 'Rest');
      for (let i = 0; i < scalars.length; ++i, p += 4) scalars[i] = finite(f32(p), 'Rest');
      for (let j = 0; j < nodeCount; ++j) {
        const [x, y, z, w] = pose.subarray(10 * j, 10 * j + 4);
        if (!(Math.abs(Math.sqrt(x * x + y * y + z * z + w * w) - 1) <= 1e-3)) fail('Rest', `rest rotation of node ${j} is not a unit quaternion within 1e-3`);
      }
      rig.rest = { pose, scalars };
      pad('Rest');
    }
    if (has(3)) { // Shells
      need(8 * nodeCount + 4 * scalarCount, 'Shells');
      rig.shells = { nodes: [], scalars: [] };
      for (let j = 0; j < nodeCount; ++j, p += 8) rig.shells.nodes.push({ shellDistance: finite(f32(p), 'Shells'), precision: finite(f32(p + 4), 'Shells') });
      for (let s = 0; s < scalarCount; ++s, p += 4) rig.shells.scalars.push(finite(f32(p), 'Shells'));
      pad('Shells');
    }
    if (has(4)) { // Scalar_sources: runs of tracks driven by one source node, from First_target on
      need(4, 'Scalar_sources');
      const runCount = u16(p);
      if (u16(p + 2) !== 0) fail('Scalar_sources', 'reserved field');
      p += 4;
      const w = wide ? 4 : 2, read = wide ? u32 : u16;
      const none = wide ? 0xffffffff : 0xffff, pointer = wide ? 0xfffffffe : 0xfffe;
      need(3 * w * runCount, 'Scalar_sources');
      rig.scalarSources = [];
      for (let r = 0; r < runCount; ++r, p += 3 * w) {
        const count = read(p), node = read(p + w);
        let target = read(p + 2 * w);
        if (count < 1 || rig.scalarSources.length + count > scalarCount) fail('Scalar_sources', `run ${r} has Count ${count}`);
        for (let k = 0; k < count; ++k) {
          const s = rig.scalarSources.length;
          rig.scalarSources.push({ node: node === none ? -1 : node === pointer ? 'pointer' : node, target });
          target += scalarComponents[s];
        }
      }
      if (rig.scalarSources.length !== scalarCount) fail('Scalar_sources', 'the runs do not cover every scalar track');
      pad('Scalar_sources');
    }
    if (has(5)) { // Names: a string offset per node, per scalar track, per clip, then the strings
      need(4, 'Names');
      const stringsSize = u32(p);
      const count = nodeCount + scalarCount + clipCount;
      need(4 + 4 * count + stringsSize, 'Names');
      const strings = p + 4 + 4 * count;
      const name = (i) => {
        const offset = u32(p + 4 + 4 * i);
        if (offset === 0xffffffff) return null;
        let end = strings + offset;
        while (end < strings + stringsSize && bytes[end] !== 0) end++;
        if (offset >= stringsSize || end === strings + stringsSize) fail('Names', `string ${i} does not end inside the strings`);
        return new TextDecoder().decode(bytes.subarray(strings + offset, end));
      };
      const all = Array.from({ length: count }, (_, i) => name(i));
      rig.names = { nodes: all.slice(0, nodeCount), scalars: all.slice(nodeCount, nodeCount + scalarCount), clips: all.slice(nodeCount + scalarCount) };
      p = strings + stringsSize;
      pad('Names');
    }
    if (has(6)) { // Scalar_rest
      need(4 * scalarFloats, 'Scalar_rest');
      rig.scalarRest = new Float32Array(scalarFloats);
      for (let i = 0; i < scalarFloats; ++i, p += 4) rig.scalarRest[i] = finite(f32(p), 'Scalar_rest');
      pad('Scalar_rest');
    }
    rig.end = p;
    return rig;
  }

  // §Rest pose: the rig's Rest part, then (scalars) its Scalar_rest part, then the caller's values;
  // null where none of them has one.
  function resolveRest() {
    const n = rig.nodeCount, floats = rig.scalarComponents.reduce((a, c) => a + c, 0);
    if (restPose && restPose.length !== 10 * n) throw new RangeError(`restPose needs ${10 * n} floats (10 per rig node)`);
    if (restScalars && restScalars.length !== floats) throw new RangeError(`restScalars needs ${floats} floats (the rig's scalar components)`);
    const pose = rig.rest ? rig.rest.pose : restPose ? Float32Array.from(restPose, f) : null;
    const scalars = rig.rest ? rig.rest.scalars : rig.scalarRest || (restScalars ? Float32Array.from(restScalars, f) : null);
    const scalarAt = [];
    rig.scalarComponents.reduce((o, c) => (scalarAt.push(o), o + c), 0);
    return {
      node: (j, sub) => (pose ? Array.from(pose.subarray(10 * j + [0, 4, 7][sub], 10 * j + [4, 7, 10][sub])) : null),
      scalar: (s) => (scalars ? Array.from(scalars.subarray(scalarAt[s], scalarAt[s] + rig.scalarComponents[s])) : null),
    };
  }

  function readClip(start, index) {
    const at = (o) => start + o;
    // §Clip header
    let clipSize, flags, sampleCount, segmentLength, sampleRate, jointCount, scalarCount, clipHeader;
    let trackCount, segmentCount, constantsOffset, rangesOffset, segmentsOffset, metadataOffset = 0;
    if (v3) {
      clipSize = u32(at(0)); flags = u32(at(4));
      if (flags & 0xfffe0000) fail('Flags', `clip ${index}: reserved clip flag bits`);
      clipHeader = flags & 8 ? 24 : 20; // Rate_f64
      if (clipSize < clipHeader) fail('Clip_size', `clip ${index} size ${clipSize}`);
      sampleCount = u32(at(8)); segmentLength = u16(at(12));
      if (u16(at(14)) !== 0) fail('Clip_header', `clip ${index}: reserved field`);
      sampleRate = flags & 8 ? f64(at(16)) : f32(at(16));
      if (sampleCount > 2 ** 32 - 2) fail('Sample_count', `Sample_count ${sampleCount}`);
      jointCount = rig.nodeCount; scalarCount = rig.scalarCount;
    } else {
      clipHeader = version === 2 ? 36 : 64;
      if (start % align !== 0 || start < clipTable + 4 * clipCount || start + clipHeader > residentEnd - 8) fail('Clip_offset', `clip ${index} offset`);
      clipSize = u32(at(0));
      if (clipSize < clipHeader || start + clipSize > residentEnd - 8) fail('Clip_size', `clip ${index} size`);
      if (index + 1 < clipCount && clipStarts[index + 1] < start + clipSize) fail('Clip_offset', 'clips overlap');
      flags = u32(at(4));
      if (flags & ~(version === 2 ? 0x3fff : 0x1f)) fail('Flags', `clip ${index}: reserved clip flags`);
      sampleRate = f64(at(8));
      const unitScale = f64(at(16));
      if (!(unitScale > 0 && isFinite(unitScale))) fail('Unit_scale', `Unit_scale ${unitScale}`);
      sampleCount = u32(at(24));
      if (version === 2) {
        jointCount = u16(at(28)); scalarCount = u16(at(30)); segmentLength = u16(at(32));
        if (u16(at(34)) !== 0) fail('Clip_header', 'reserved clip header field');
      } else {
        jointCount = u32(at(28)); scalarCount = u32(at(32)); trackCount = u32(at(36));
        segmentCount = u32(at(40)); segmentLength = u32(at(44));
        constantsOffset = u32(at(48)); rangesOffset = u32(at(52)); segmentsOffset = u32(at(56)); metadataOffset = u32(at(60));
      }
      if (jointCount > 65535 || scalarCount > 65535 || jointCount + scalarCount < 1) fail('Joint_count', 'counts');
    }
    if (!(sampleRate > 0 && isFinite(sampleRate))) fail('Sample_rate', `Sample_rate ${sampleRate}`);
    if (sampleCount < 1) fail('Sample_count', 'Sample_count 0');
    // §Curves: a curve clip has no segments, and nothing only segments use
    const curves = v3 && (flags & 0x10000) !== 0;
    if (curves && (segmentLength !== 0 || (flags & (1 | 6 | 32 | 64 | 1024))))
      fail('Curves', `clip ${index}: Curves with Segment_length ${segmentLength}, Looping, Paged, rounding or Midpoint_knots`);
    if (!curves && (segmentLength < 1 || segmentLength > 1024)) fail('Segment_length', `Segment_length ${segmentLength}`);
    const clipEnd = start + clipSize;
    const need = (o, n, what) => { if (o + n > clipSize) fail('Clip_size', `clip ${index}: ${what} past the end of the clip`); };

    const looping = (flags & 1) !== 0, clipRounding = (flags >> 1) & 3;
    const lastRepeatsFirst = (flags & 16) !== 0, isPaged = (flags & 32) !== 0, trackRounding = (flags & 64) !== 0;
    const tiered = (flags & 128) !== 0, halfRanges = (flags & 256) !== 0, shortConstants = (flags & 512) !== 0;
    const midpoint = (flags & 1024) !== 0, timeMap = (flags & 2048) !== 0, slerpFit = (flags & 8192) !== 0;
    const hasMetadata = !v3 && (flags & 8) !== 0; // bit 3: Rate_f64 in version 3, Has_metadata before
    const nodeMap = v3 && (flags & 16384) !== 0, scalarMap = v3 && (flags & 32768) !== 0;
    if (lastRepeatsFirst && !looping) fail('Last_repeats_first', 'Last_repeats_first without Looping');
    if (isPaged !== paged) fail('Paged', `clip ${index}: Paged does not match the blob`);
    if (tiered && !isPaged) fail('Tiered', 'Tiered without Paged');
    if (timeMap && looping) fail('Time_map', 'Time_map with Looping');
    const storedCount = sampleCount + (looping ? 1 : 0);
    const wantSegments = curves ? 0 : Math.max(1, Math.ceil((storedCount - 1) / segmentLength));
    if (version === 1 && segmentCount !== wantSegments) fail('Segment_count', `Segment_count ${segmentCount}`);
    segmentCount = wantSegments;
    const lone = version >= 2 && segmentCount === 1; // no segment ranges, 3-component rotation clip ranges

    // §Node map and scalar map (version 3): which rig nodes and scalar tracks the clip lists.
    let p = clipHeader;
    const readMap = (present, count, code) => {
      if (!present) return Array(count).fill(true);
      const n = Math.ceil(count / 8);
      need(p, n, code);
      const listed = [];
      for (let j = 0; j < 8 * n; ++j) {
        const bit = (u8(at(p + (j >> 3))) >> (j & 7)) & 1;
        if (j < count) listed.push(bit === 1);
        else if (bit) fail(code, `bit ${j} is past the last ${code === 'Node_map' ? 'node' : 'scalar track'}`);
      }
      p += n;
      return listed;
    };
    const nodeListed = readMap(nodeMap, jointCount, 'Node_map');
    const scalarListed = readMap(scalarMap, scalarCount, 'Scalar_map');

    // §Descriptors: a byte per listed node, then per listed scalar track (version 1: 2 bytes each), then
    // with Track_rounding (versions 2 and 3) a rounding byte each.
    const unlistedKind = restDefaults ? 1 : 0;
    const listedNodes = nodeListed.filter((x) => x).length, listedScalars = scalarListed.filter((x) => x).length;
    const descSize = version === 1 ? 2 : 1, listed = listedNodes + listedScalars;
    const roundingAt = p + listed * descSize;
    const descEnd = roundingAt + (version > 1 && trackRounding ? listed : 0);
    need(p, descEnd - p, 'descriptors');
    const roundingOf = (i, b1) => {
      const r = version > 1 ? (trackRounding ? u8(at(roundingAt + i)) : 15) : b1 & 15;
      if (r > 3 && r !== 15) fail('Rounding', `rounding ${r}`);
      return r === 15 ? clipRounding : r;
    };
    const joints = [], scalars = [], tracks = [];
    let d = 0; // descriptor index
    for (let j = 0; j < jointCount; ++j) {
      if (!nodeListed[j]) {
        joints.push({ kinds: [unlistedKind, unlistedKind, unlistedKind], rounding: clipRounding, dropped: 0, tracks: [-1, -1, -1], values: [null, null, null] });
        continue;
      }
      const b0 = u8(at(p)), b1 = version === 1 ? u8(at(p + 1)) : 0;
      if (version === 1 && (b0 >> 6 || b1 >> 6)) fail('Descriptor', 'reserved descriptor bits');
      const kinds = [b0 & 3, (b0 >> 2) & 3, (b0 >> 4) & 3];
      const dropped = version === 1 ? (b1 >> 4) & 3 : b0 >> 6;
      // Constant_dropped: for a rotation whose value is stored with the constants, 0 otherwise
      const stored = kinds[0] === 2 || (kinds[0] === 1 && !restDefaults);
      if (version > 1 && dropped && !stored) fail('Constant_dropped', `node ${j}: Constant_dropped of a rotation that is not stored`);
      joints.push({ kinds, rounding: roundingOf(d, b1), dropped, tracks: [-1, -1, -1], values: [null, null, null] });
      p += descSize; d++;
    }
    for (let s = 0; s < scalarCount; ++s) {
      const components = v3 ? rig.scalarComponents[s] : 0;
      if (!scalarListed[s]) {
        scalars.push({ kind: unlistedKind, components, rounding: clipRounding, track: -1, value: null });
        continue;
      }
      const b0 = u8(at(p)), b1 = version === 1 ? u8(at(p + 1)) : 0;
      if ((v3 ? b0 >> 2 : b0 >> 4) || (version === 1 && b1 >> 4)) fail('Descriptor', `scalar track ${s}: reserved descriptor bits`);
      scalars.push({ kind: b0 & 3, components: v3 ? components : ((b0 >> 2) & 3) + 1, rounding: roundingOf(d, b1), track: -1, value: null });
      p += descSize; d++;
    }
    // §Descriptors: animated tracks in order, each listed node's rotation, translation, scale; then scalars.
    joints.forEach((joint, j) => joint.kinds.forEach((kind, sub) => {
      if (kind === 3) { joint.tracks[sub] = tracks.length; tracks.push({ type: sub, components: 3, owner: j, rounding: joint.rounding }); }
    }));
    scalars.forEach((sc, s) => {
      if (sc.kind === 3) { sc.track = tracks.length; tracks.push({ type: 3, components: sc.components, owner: s, rounding: sc.rounding }); }
    });
    if (version === 1 && tracks.length !== trackCount) fail('Track_count', `Track_count ${trackCount}`);
    trackCount = tracks.length;
    const storedComponents = tracks.reduce((n, t) => n + t.components, 0);

    // §Constants: kind 2, and kind 1 where defaults are stored (versions 1 and 2; version 3 without Rest_defaults)
    if (version > 1) constantsOffset = align4(descEnd);
    if (constantsOffset % 4 || constantsOffset < descEnd || constantsOffset - descEnd >= 4) fail('Constants_offset', 'Constants_offset');
    need(descEnd, constantsOffset - descEnd, 'descriptor padding');
    zeros(at(descEnd), at(constantsOffset), 'Padding', 'descriptor padding');
    let q = at(constantsOffset);
    const readFloat = (what) => () => {
      need(q - start, 4, what);
      const v = f32(q);
      if (!isFinite(v)) fail(what, `a non-finite value in clip ${index}`);
      q += 4;
      return v;
    };
    // Short_constants: the high 3 bytes of an f32
    const readShort = () => {
      need(q - start, 3, 'Constants');
      const v = floatOfBits((u8(q) << 8 | u8(q + 1) << 16 | u8(q + 2) << 24) >>> 0);
      if (!isFinite(v)) fail('Constants', `a non-finite value in clip ${index}`);
      q += 3;
      return v;
    };
    const storedKind = (kind) => kind === 2 || (kind === 1 && !(v3 && restDefaults));
    const readConstant = (kind) => (kind === 2 && shortConstants ? readShort : readFloat('Constants'));
    for (const joint of joints) {
      joint.kinds.forEach((kind, sub) => {
        if (!storedKind(kind)) return;
        const read = readConstant(kind), three = [read(), read(), read()];
        joint.values[sub] = sub === 0 ? rebuild(three, joint.dropped) : three;
      });
    }
    for (const sc of scalars) if (storedKind(sc.kind)) sc.value = Array.from({ length: sc.components }, readConstant(sc.kind));
    for (; (q - start) % 4; q++) { need(q - start, 1, 'constants padding'); if (u8(q) !== 0) fail('Padding', 'constants padding'); }
    if (version > 1) rangesOffset = q - start;
    if (q !== at(rangesOffset)) fail('Ranges_offset', 'Ranges_offset');

    // §Clip ranges: per animated track, R minima then R extents (f32, or bfloat16 with Half_ranges)
    const readHalf = () => {
      need(q - start, 2, 'Clip_ranges');
      const v = floatOfBits(u16(q) * 65536);
      if (!isFinite(v)) fail('Clip_ranges', 'a non-finite range');
      q += 2;
      return v;
    };
    for (const t of tracks) {
      if (curves) break; // (a curve's ranges are in its record, §Curves)
      const r = t.type === 0 ? (lone ? 3 : 4) : t.components; // §Clip ranges, lone segment
      const read = halfRanges ? readHalf : readFloat('Clip_ranges');
      t.min = []; t.extent = [];
      for (let i = 0; i < r; ++i) t.min.push(read());
      for (let i = 0; i < r; ++i) t.extent.push(read());
    }

    // §Time map
    const marks = [];
    if (timeMap) {
      need(q - start, 4, 'Time_map');
      const n = u32(q);
      if (n < 2 || n > storedCount) fail('Mark_count', `Mark_count ${n}`);
      if (v3) { // times, then the samples of marks 1 .. n - 2 unless every sample is a mark
        const sampleBytes = n === storedCount ? 0 : storedCount <= 65536 ? 2 : 4;
        const mapEnd = align4(4 + 4 * n + sampleBytes * (n - 2));
        need(q - start, mapEnd, 'Time_map');
        for (let m = 0; m < n; ++m) {
          const sample = m === 0 ? 0 : m === n - 1 ? storedCount - 1 : sampleBytes === 0 ? m
            : sampleBytes === 2 ? u16(q + 4 + 4 * n + 2 * (m - 1)) : u32(q + 4 + 4 * n + 4 * (m - 1));
          marks.push({ time: f32(q + 4 + 4 * m), sample });
        }
        zeros(q + 4 + 4 * n + sampleBytes * (n - 2), q + mapEnd, 'Padding', 'time map padding');
        q += mapEnd;
      } else { // §Version 2: f32 Time, u32 Sample per mark
        need(q - start, 4 + 8 * n, 'Time_map');
        for (let m = 0; m < n; ++m) marks.push({ time: f32(q + 4 + 8 * m), sample: u32(q + 8 + 8 * m) });
        if (marks[0].sample !== 0 || marks[n - 1].sample !== storedCount - 1) fail('Time_map', 'first or last mark sample');
        q += 4 + 8 * n;
      }
      marks.forEach((mark, m) => {
        if (!(isFinite(mark.time) && mark.time >= 0)) fail('Time_map', `mark ${m} time ${mark.time}`);
        if (m > 0 && !(mark.sample > marks[m - 1].sample && mark.time > marks[m - 1].time)) fail('Time_map', `mark ${m} does not follow mark ${m - 1}`);
      });
    }
    if (version > 1) segmentsOffset = q - start;
    if (q !== at(segmentsOffset)) fail('Segments_offset', 'Segments_offset');

    // §Segment table and segments, or the page table and the pages (§Pages, §Tiers)
    const rangeBytes = lone ? 0 : 2 * storedComponents;
    const descriptorBytes = midpoint ? 5 : 3;
    const groupBytes = v3 ? 0 : 4 * Math.ceil(trackCount / 8); // version 1 and 2 group offsets
    const headerBytes = descriptorBytes * trackCount + rangeBytes + groupBytes;
    let segments = [], tableEnd;
    let curveBlock = null; // (its blob offset and its records', for tests that damage them)
    const curveRecords = [];
    if (curves) { // §Curves: the curve block ends the clip
      curveBlock = at(segmentsOffset);
      readCurves(curveBlock);
      tableEnd = clipSize;
    } else if (paged) {
      need(segmentsOffset, 4, 'Page_count');
      const pageCount = u32(at(segmentsOffset));
      tableEnd = segmentsOffset + 4 + 20 * pageCount;
      need(segmentsOffset, 4 + 20 * pageCount, 'the page table');
      // §Tiers: the tier table follows the page table; tier k owns pages firstPages[k] ..
      let tierCount = 1;
      const firstPages = [0];
      if (tiered) {
        need(tableEnd, 4, 'Tier_count');
        tierCount = u32(at(tableEnd));
        if (tierCount < 2 || tierCount > 8) fail('Tier_count', `Tier_count ${tierCount}`);
        need(tableEnd, 4 + 12 * tierCount, 'the tier table');
        for (let k = 0; k < tierCount; ++k) {
          const e = at(tableEnd + 4 + 12 * k), bound = f32(e + 4), error = f32(e + 8);
          if (k === 0 ? u32(e) !== 0 : u32(e) <= firstPages[k - 1] || u32(e) >= pageCount) fail('First_page', `tier ${k} First_page`);
          if (k > 0) firstPages.push(u32(e));
          if (!(bound >= 0 && isFinite(bound) && error >= 0 && isFinite(error))) fail('Bound', `tier ${k} Bound or Max_error`);
        }
        tableEnd += 4 + 12 * tierCount;
      }
      if (pageCount < 1 || pageCount > segmentCount * tierCount) fail('Page_count', `Page_count ${pageCount}`);
      const tierSegments = [];
      let held = 0; // segments of the current tier so far
      for (let pg = 0; pg < pageCount; ++pg) {
        if (firstPages.includes(pg)) { // a tier starts: its pages hold every segment again
          if (pg > 0 && held !== segmentCount) fail('Segment_count', 'a tier\'s pages do not hold every segment');
          segments = [];
          held = 0;
          tierSegments.push(segments);
        }
        const e = at(segmentsOffset + 4 + 20 * pg);
        const firstSegment = u32(e), n = u32(e + 4), offset = u32(e + 8), pageSize = u32(e + 12), checksum = u32(e + 16);
        if (firstSegment !== held) fail('First_segment', `page ${pg} First_segment ${firstSegment}`);
        if (n < 1 || firstSegment + n > segmentCount) fail('Segment_count', `page ${pg} Segment_count ${n}`);
        if (offset !== nextPage || offset % 4) fail('Offset', `page ${pg} offset ${offset}`);
        if (pageSize % 4 || pageSize < 4 * (n + 1) + 8 || offset + pageSize > total) fail('Size', `page ${pg} size ${pageSize}`);
        held += n;
        nextPage = offset + pageSize;
        if (!pagesPresent) { for (let k = 0; k < n; ++k) segments.push(null); continue; }
        if (xxh32(bytes, offset, offset + pageSize, pg) !== checksum) fail('Checksum', `page ${pg} checksum`);
        let expect = 4 * (n + 1);
        for (let k = 0; k < n; ++k) {
          const begin = u32(offset + 4 * k), end = u32(offset + 4 * (k + 1));
          if (begin !== expect || end < begin || end > pageSize - 8) fail('Segment_offset', `page ${pg} segment offsets`);
          segments.push(readSegment(firstSegment + k, offset + begin, offset + end));
          expect = end;
        }
        if (pageSize - expect < 8 || pageSize - expect >= 12) fail('Tail', `page ${pg} tail`);
        zeros(offset + expect, offset + pageSize, 'Tail', `page ${pg} tail`);
      }
      if (held !== segmentCount || tierSegments.length !== tierCount) fail('Segment_count', 'the pages do not hold every segment');
      // §Tiers: a lone segment's rotation range leaves out one component, so every tier that quantizes
      // the track drops that one
      if (lone && pagesPresent) tracks.forEach((t, i) => {
        const dropped = tierSegments.map((tier) => tier[0].tracks[i]).filter((st) => t.type === 0 && !st.raw).map((st) => st.dropped);
        if (dropped.some((d) => d !== dropped[0])) fail('Dropped', `rotation track ${i}: the tiers drop different components`);
      });
      // play the finest tier asked for (every page is here when decoding a whole blob)
      segments = tierSegments[(tiers > 0 && tiers < tierCount ? tiers : tierCount) - 1];
    } else if (v3 && segmentCount === 1) { // §Segment table: a lone segment has none
      need(segmentsOffset, 0, 'the segment');
      segments.push(readSegment(0, at(segmentsOffset), clipEnd));
      tableEnd = clipSize;
    } else {
      need(segmentsOffset, 4 * (segmentCount + 1), 'the segment table');
      for (let s = 0; s < segmentCount; ++s) {
        const begin = u32(at(segmentsOffset + 4 * s)), end = u32(at(segmentsOffset + 4 * (s + 1)));
        const expect = s === 0 ? segmentsOffset + 4 * (segmentCount + 1) : segments[s - 1].end - start;
        if (begin !== expect || end < begin || end > clipSize) fail('Segment_table', `segment ${s} offsets`);
        segments.push(readSegment(s, at(begin), at(end)));
      }
      tableEnd = segments[segmentCount - 1].end - start;
    }
    // The clip ends where its last segment (or its page or tier table) ends; version 1 and 2 metadata after.
    if (version === 2 && hasMetadata) metadataOffset = align4(tableEnd);
    if (!hasMetadata && (tableEnd !== clipSize || metadataOffset !== 0)) fail('Clip_size', `clip ${index} does not end at its last segment`);
    if (hasMetadata && (metadataOffset < tableEnd || metadataOffset - tableEnd >= 4 || metadataOffset % 4 || metadataOffset >= clipSize))
      fail('Metadata_offset', 'Metadata_offset');
    const metadata = hasMetadata || metadataOffset ? readMetadata(at(metadataOffset), clipSize - metadataOffset) : null;

    // §Version 2, metadata (versions 1 and 2): names, hierarchy, sources, shells and default poses per clip.
    function readMetadata(m, available) {
      if (available < 16) fail('Metadata_size', 'metadata shorter than its header');
      const size = u32(m), stringsOffset = u32(m + 8), stringsSize = u32(m + 12);
      if (size !== available) fail('Metadata_size', `Metadata_size ${size}, the clip leaves ${available}`);
      if (stringsOffset !== 16 + 60 * jointCount + 32 * scalarCount) fail('Strings_offset', `Strings_offset ${stringsOffset}`);
      if (stringsOffset + stringsSize !== size) fail('Strings_size', `Strings_size ${stringsSize}`);
      const strings = m + stringsOffset;
      const string = (offset) => {
        if (offset === 0xffffffff) return null;
        let end = strings + offset;
        while (end < strings + stringsSize && bytes[end] !== 0) end++;
        if (offset >= stringsSize || end === strings + stringsSize) fail('Strings', `string ${offset} does not end inside the table`);
        return new TextDecoder().decode(bytes.subarray(strings + offset, end));
      };
      const floats = (o, n) => Array.from({ length: n }, (_, i) => {
        const v = f32(o + 4 * i);
        if (!isFinite(v)) fail('Metadata', 'a non-finite value');
        return v;
      });
      const joints = [];
      for (let j = 0; j < jointCount; ++j) {
        const e = m + 16 + 60 * j, parent = view.getInt32(e, true);
        if (parent !== -1 && !(parent >= 0 && parent < j)) fail('Parent', `joint ${j} has parent ${parent}`);
        const [shellDistance, precision, ...rest] = floats(e + 12, 12);
        joints.push({ parent, sourceIndex: view.getInt32(e + 4, true), name: string(u32(e + 8)), shellDistance, precision, rest });
      }
      const scalarTracks = [];
      for (let s = 0; s < scalarCount; ++s) {
        const e = m + 16 + 60 * jointCount + 32 * s, sourceNode = view.getInt32(e + 4, true);
        const [precision, ...defaultValue] = floats(e + 12, 5);
        scalarTracks.push({ name: string(u32(e)), sourceNode: sourceNode < -2 ? -1 : sourceNode, sourceTarget: view.getInt32(e + 8, true),
                            precision, defaultValue });
      }
      return { name: string(u32(m + 4)), joints, scalars: scalarTracks };
    }

    // §Curves: the key times, a record per animated track, then the keys' bits (CUBICSPLINE: in-tangent, value,
    // out-tangent per key), which end the clip. Each track gets its curve: times, interpolation, its keys' fields.
    function readCurves(b) {
      need(b - start, 2, 'Time_count');
      const count = u16(b);
      if (count < 1) fail('Time_count', `clip ${index}: no key time`);
      need(b - start, 2 + 4 * count, 'Time');
      const times = [];
      for (let k = 0; k < count; ++k) {
        const t = f32(b + 2 + 4 * k);
        if (!(isFinite(t) && t >= 0)) fail('Time', `clip ${index}: key time ${k} is ${t}`);
        times.push(t);
      }
      if (!trackCount) fail('Curves', `clip ${index}: Curves without an animated track`);
      let r = b + 2 + 4 * count, bits = 0;
      const range = halfRanges ? readHalf : readFloat('Curve_ranges');
      for (const t of tracks) {
        const n = t.type === 0 ? 4 : t.components;
        curveRecords.push({ offset: r, interpolation: u16(r) });
        q = r;
        need(r - start, 6 + 2 * n, 'a curve record');
        const interpolation = u16(r), first = u16(r + 2), keys = u16(r + 4), cubic = interpolation === 2;
        if (interpolation > 2) fail('Interpolation', `clip ${index}: interpolation ${interpolation}`);
        if (keys < 1 || first + keys > count) fail('Key_count', `clip ${index}: keys ${first} + ${keys} of ${count}`);
        const curveTimes = times.slice(first, first + keys);
        curveTimes.forEach((time, k) => { if (k && time < curveTimes[k - 1]) fail('Time', `clip ${index}: key times out of order`); });
        const widths = [], tangentWidths = [];
        for (let k = 0; k < n; ++k) {
          const w = u16(r + 6 + 2 * k);
          if (w >> 10) fail('Widths', 'reserved width bits');
          widths.push(w & 31); tangentWidths.push((w >> 5) & 31);
          if ((w & 31) > 24 || ((w >> 5) & 31) > 24) fail('Widths', `width ${w & 31} or ${(w >> 5) & 31} above 24`);
          if (!cubic && tangentWidths[k]) fail('Widths', 'a tangent width without CUBICSPLINE');
        }
        q = r + 6 + 2 * n;
        const field = (w) => { const min = range(), extent = w ? range() : 0; return { w, min, step: w === 0 ? 0 : f(extent * f(1 / (2 ** w - 1))) }; };
        const fields = [[], []]; // value, tangent per component
        for (let k = 0; k < n; ++k) {
          fields[0].push(field(widths[k]));
          fields[1].push(cubic ? field(tangentWidths[k]) : { w: 0, min: 0, step: 0 });
        }
        r = q;
        const valueBits = widths.reduce((a, w) => a + w, 0), tangentBits = cubic ? tangentWidths.reduce((a, w) => a + w, 0) : 0;
        t.curve = { interpolation, times: curveTimes, fields, valueBits, tangentBits, keyBits: valueBits + 2 * tangentBits, firstBit: bits };
        bits += keys * t.curve.keyBits;
      }
      if (r - start + Math.ceil(bits / 8) !== clipSize) fail('Clip_size', `clip ${index}: the curve block does not end the clip`);
      for (const t of tracks) t.curve.data = r;
    }

    // §Curves, sampling: the curve of track t at time u (clamped to the clip).
    function sampleCurve(t, u) {
      const c = t.curve, T = c.times, K = T.length, n = t.type === 0 ? 4 : t.components;
      const v = c.interpolation === 0 ? u + 1e-6 * Math.max(1, u) : u; // STEP reaches a key 1e-6 s early (relative beyond 1 s)
      let i = -1;
      for (let k = 0; k < K; ++k) if (T[k] <= v) i = k;
      const held = c.interpolation === 0 || i < 0 || i === K - 1;
      if (i < 0) i = 0;
      const s = held ? 0 : f((u - T[i]) / (T[i + 1] - T[i])), d = held ? 0 : f(T[i + 1] - T[i]);
      // the fields from key i's value to key i + 1's value follow each other (a held key: its value alone)
      let pos = c.firstBit + i * c.keyBits + c.tangentBits;
      const read = (g) => Array.from({ length: n }, (_, k) => {
        const { w, min, step } = c.fields[g][k], code = w ? readBits({ data: c.data }, pos, w) : 0;
        pos += w;
        return f(min + f(code * step)); // code < 2^24: exact
      });
      const zero = new Array(n).fill(0);
      const v0 = read(0), m0 = held ? zero : read(1), m1 = held ? zero : read(1), v1 = held ? zero : read(0);
      if (!held && c.interpolation === 1 && t.type === 0) return nlerp(v0, v1, s, slerpFit);
      let w = [1, 0, 0, 0];
      if (!held && c.interpolation === 1) w = [f(1 - s), 0, s, 0];
      if (!held && c.interpolation === 2) {
        const s2 = f(s * s), s3 = f(s2 * s), a = f(2 * s3), b = f(3 * s2);
        w = [f(f(a - b) + 1), f(f(f(s3 - f(2 * s2)) + s) * d), f(b - a), f(f(s3 - s2) * d)];
      }
      const out = v0.map((x, k) => f(f(f(f(w[0] * x) + f(w[1] * m0[k])) + f(w[2] * v1[k])) + f(w[3] * m1[k])));
      return t.type === 0 ? normalize(out) : out;
    }

    // §Segment: segment s in blob bytes [base, end): track descriptors, segment ranges, (version 1
    // and 2: group offsets,) bit stream.
    function readSegment(s, base, end) {
      const first = s * segmentLength;
      const length = Math.min(segmentLength, storedCount - 1 - first);
      if (end - base < headerBytes) fail('Segment', `segment ${s} is shorter than its descriptors`);
      const rangesAt = base + descriptorBytes * trackCount, groupsAt = rangesAt + rangeBytes;
      const seg = { end, length, data: base + headerBytes, tracks: [] };
      let slot = 0;
      tracks.forEach((t, i) => {
        const st = readTrackDescriptor(t, base + descriptorBytes * i, length);
        st.ranges = [];
        for (let k = 0; k < t.components; ++k, ++slot) st.ranges.push(lone ? [0, 255] : [u8(rangesAt + 2 * slot), u8(rangesAt + 2 * slot + 1)]);
        seg.tracks.push(st);
      });
      // Where each knot of each track lies (st.plainPos(i) for a plain knot, st.predictedPos(i) for a
      // predicted one): in rows (version 3, §Bit stream) or track after track (versions 1, 2).
      let bits = 0;
      if (v3) {
        // per decimation level: K rows in knot order, row i holding knot i of every level track; with
        // Midpoint_knots the odd rows before the last are residual rows (Wr bits), the others plain (Wp)
        for (let level = 0; level < 4; ++level) {
          const levelTracks = seg.tracks.filter((st) => st.decimation === level);
          if (!levelTracks.length) continue;
          const K = levelTracks[0].knots, P = midpoint ? Math.floor((K - 1) / 2) : 0, L = bits;
          let Wp = 0, Wr = 0;
          for (const st of levelTracks) { st.plainColumn = Wp; Wp += st.knotBits; st.residualColumn = Wr; Wr += st.residualBits; }
          if (!midpoint) Wr = Wp;
          const row = (i) => L + Math.ceil(i / 2) * Wp + Math.floor(i / 2) * Wr;
          for (const st of levelTracks) {
            st.predicted = P;
            st.plainPos = (i) => row(i) + st.plainColumn;
            st.predictedPos = (i) => row(i) + st.residualColumn;
          }
          bits += (K - P) * Wp + P * Wr;
        }
      } else {
        seg.tracks.forEach((st, i) => {
          if (i % 8 === 0 && u32(groupsAt + 4 * (i / 8)) !== bits) fail('Group_offset', `segment ${s} group ${i / 8}`);
          // version 2: a track with some Shift_k > 0 stores its plain knots (the even ones and the last),
          // then the residuals of its odd knots but the last
          const P = st.shifts.some((x) => x > 0) ? Math.floor((st.knots - 1) / 2) : 0, at = bits;
          st.predicted = P;
          st.plainPos = (k) => at + (P ? (k + 1) >> 1 : k) * st.knotBits;
          st.predictedPos = (k) => at + (st.knots - P) * st.knotBits + ((k - 1) / 2) * st.residualBits;
          bits += (st.knots - P) * st.knotBits + P * st.residualBits;
        });
      }
      if (headerBytes + Math.ceil(bits / 8) !== end - base) fail('Segment', `segment ${s} size`);
      return seg;
    }

    // §Segment, track descriptor: widths, Dropped or Width3, Decimation, and (Midpoint_knots) shifts.
    // Returns the track's stored slots: their width codes and bits, shifts and residual widths.
    function readTrackDescriptor(t, dp, length) {
      const D = u8(dp) | (u8(dp + 1) << 8) | (u8(dp + 2) << 16);
      if (D >> 22) fail('Track_descriptor', 'reserved track descriptor bits');
      const shiftBits = midpoint ? u8(dp + 3) | (u8(dp + 4) << 8) : 0;
      const field = (k) => (D >> (5 * k)) & 31, shift = (k) => (shiftBits >> (4 * k)) & 15;
      const codes = [0, 1, 2, 3].map(field).slice(0, t.type === 0 ? 3 : 4);
      for (const w of codes) if (w > 24 && w !== 31) fail('Track_descriptor', `invalid width code ${w}`);
      let widths, dropped = 0;
      if (t.type === 0) {
        dropped = field(3);
        const raw = codes.filter((w) => w === 31).length;
        if (dropped > 3) fail('Dropped', `Dropped ${dropped}`);
        if (raw !== 0 && raw !== 3) fail('Track_descriptor', 'a rotation with some raw components but not all');
        if (raw && dropped !== 0) fail('Dropped', 'a raw rotation with Dropped');
        widths = raw ? [31, 31, 31, 31] : codes; // a raw rotation stores x, y, z, w as float32
      } else {
        for (let k = t.components; k < 4; ++k) if (codes[k] !== 0) fail('Track_descriptor', 'width for a missing component');
        widths = codes.slice(0, t.components);
      }
      const shifts = [0, 1, 2, 3].map(shift);
      shifts.forEach((sh, k) => {
        if (!sh) return;
        if (k >= (t.type === 0 ? 3 : t.components)) fail('Shift', 'shift for a slot the track does not store');
        if (widths[k] === 31) fail('Shift', 'shift for a raw slot');
        if (sh > widths[k]) fail('Shift', `shift ${sh} exceeds width ${widths[k]}`);
      });
      // a track with a raw slot has every Shift_k 0 (version 2: it is plain; version 3: its predicted knots are whole)
      if (widths.includes(31) && shifts.some((x) => x > 0)) fail('Shift', 'shift in a track with a raw slot');
      const slotBits = widths.map((w) => (w === 31 ? 32 : w));
      const rwidths = slotBits.map((b, k) => b - shifts[k]);
      const decimation = (D >> 20) & 3;
      return { widths, slotBits, shifts, rwidths, dropped, decimation, raw: t.type === 0 && widths.length === 4,
               knots: Math.ceil(length / (1 << decimation)) + 1,
               knotBits: slotBits.reduce((a, b) => a + b, 0), residualBits: rwidths.reduce((a, b) => a + b, 0) };
    }

    // Bit stream: LSB-first (docs/format.md §Conventions).
    function readBits(seg, pos, w) {
      let v = 0;
      for (let i = 0; i < w; ++i) {
        const bit = pos + i;
        if ((u8(seg.data + Math.floor(bit / 8)) >> (bit % 8)) & 1) v += 2 ** i;
      }
      return v;
    }

    // The slots of a knot at bit `pos`, one after another, `bits[k]` each.
    function readSlots(seg, pos, bits) {
      return bits.map((b) => { const v = readBits(seg, pos, b); pos += b; return v; });
    }

    // §Midpoint knots: knot i of a track as stored integers. A predicted knot (an odd one before the
    // last, with Midpoint_knots) is stored whole when the track has no Shift (version 3), else as the
    // rounded-up midpoint of plain knots i - 1 and i + 1 plus its biased residual, modulo 2^Width_bits
    // (versions 2 and 3 alike).
    function knotCodes(seg, st, i) {
      if (!(st.predicted > 0 && i % 2 === 1 && i < st.knots - 1)) return readSlots(seg, st.plainPos(i), st.slotBits);
      const r = readSlots(seg, st.predictedPos(i), st.rwidths);
      if (!st.shifts.some((x) => x > 0)) return r; // stored whole
      const a = readSlots(seg, st.plainPos(i - 1), st.slotBits), b = readSlots(seg, st.plainPos(i + 1), st.slotBits);
      return st.slotBits.map((bits, k) => {
        const rw = st.rwidths[k], modulus = 2 ** bits;
        const value = Math.floor((a[k] + b[k] + 1) / 2) + r[k] - (rw > 0 ? 2 ** (rw - 1) : 0);
        return ((value % modulus) + modulus) % modulus;
      });
    }

    // §Dequantization of stored slot k of track t
    function dequantize(t, st, k, code) {
      const w = st.widths[k];
      if (w === 31) return floatOfBits(code);
      // the clip range of component c (of stored slot k for a lone segment's rotation, §Clip ranges)
      const c = t.type === 0 && !lone ? k + (k >= st.dropped ? 1 : 0) : k;
      const [rangeMin, rangeExtent] = st.ranges[k];
      const lo = f(t.min[c] + f(t.extent[c] * f(rangeMin / 255)));
      const ext = f(t.extent[c] * f(rangeExtent / 255));
      const step = w === 0 ? 0 : f(ext * f(1 / (2 ** w - 1)));
      return f(lo + f(code * step)); // code < 2^24: (float)code is exact
    }

    function knotValues(t, st, seg, i) {
      const values = knotCodes(seg, st, i).map((code, k) => dequantize(t, st, k, code));
      return t.type === 0 && !st.raw ? rebuild(values, st.dropped) : values;
    }

    // §Sampling semantics, steps 2-5, for one animated track at `key`
    function sampleKeyTrack(t, key) {
      const wide = snap(key, 1e-6); // floor, ceil and nearest snap wider than interpolation (step 2)
      const rounded = [key, Math.floor(wide), Math.min(Math.ceil(wide), storedCount - 1),
                       Math.min(Math.floor(wide + 0.5), storedCount - 1)][t.rounding];
      const s = Math.min(Math.floor(Math.floor(rounded) / segmentLength), segmentCount - 1);
      const seg = segments[s];
      if (!seg) fail('Page_missing', `clip ${index}: the page of segment ${s} is not here`);
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
      const a = knotValues(t, st, seg, i), b = knotValues(t, st, seg, Math.min(i + 1, st.knots - 1));
      if (st.raw && alpha === 0) return a; // a raw rotation's knot as stored (step 5 exception)
      return t.type === 0 ? nlerp(a, b, alpha, slerpFit) : a.map((v, k) => f(v + f(f(b[k] - v) * alpha)));
    }

    function snap(key, tolerance) {
      const nearest = Math.floor(key + 0.5);
      return Math.abs(key - nearest) <= tolerance * Math.max(1, nearest) ? nearest : key;
    }

    // §Sampling semantics, step 1 (binary64)
    function keyForTime(t) {
      const last = storedCount - 1;
      if (marks.length) {
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

    // Version 3 with Rest_defaults: kind-1 sub-tracks and whatever the clip does not list play the rest
    // value (§Rest pose); the clip refuses to sample when one it needs has none.
    const missingRest = [];
    if (restValues) {
      joints.forEach((joint, j) => joint.kinds.forEach((kind, sub) => {
        if (kind !== 1) return;
        joint.values[sub] = restValues.node(j, sub);
        if (!joint.values[sub]) missingRest.push(`node ${j} ${SUB_NAMES[sub]}`);
      }));
      scalars.forEach((sc, s) => {
        if (sc.kind !== 1) return;
        sc.value = restValues.scalar(s);
        if (!sc.value) missingRest.push(`scalar track ${s}`);
      });
    }

    // §Sampling semantics, step 6: every node, every scalar track
    function samplePose(t) {
      if (missingRest.length) fail('Rest_pose', `clip ${index} plays the rest value of ${missingRest[0]}, which neither the rig nor the caller gives`);
      const key = curves ? null : keyForTime(t);
      const duration = marks.length ? marks[marks.length - 1].time : (storedCount - 1) / sampleRate;
      const u = !(t > 0) ? 0 : t > duration ? duration : t; // §Curves: the time, clamped
      const sampleTrack = curves ? (track) => sampleCurve(track, u) : sampleKeyTrack;
      const pose = new Float32Array(jointCount * 10);
      joints.forEach((joint, j) => {
        joint.kinds.forEach((kind, sub) => {
          const value = kind === 0 ? IDENTITY[sub] : kind === 3 ? sampleTrack(tracks[joint.tracks[sub]], key) : joint.values[sub];
          pose.set(value, j * 10 + [0, 4, 7][sub]);
        });
      });
      const scalarOut = new Float32Array(scalars.reduce((n, sc) => n + sc.components, 0));
      let o = 0;
      for (const sc of scalars) {
        const value = sc.kind === 0 ? new Array(sc.components).fill(0) : sc.kind === 3 ? sampleTrack(tracks[sc.track], key) : sc.value;
        scalarOut.set(value, o);
        o += sc.components;
      }
      return { pose, scalars: scalarOut };
    }

    return {
      name: v3 ? (rig.names ? rig.names.clips[index] : null) : metadata && metadata.name, metadata,
      flags, sampleRate, sampleCount: sampleCount + (lastRepeatsFirst ? 1 : 0), jointCount, scalarCount,
      scalarComponents: scalars.map((sc) => sc.components), looping, segmentCount, marks,
      listedNodes: nodeListed, listedScalars: scalarListed, trackCount, samplePose, curveBlock, curveRecords,
      duration: marks.length ? marks[marks.length - 1].time : (storedCount - 1) / sampleRate,
    };
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
// With Slerp_fit the parameter is corrected first: t' = t + g (A h^2 + B), h = t - 1/2, g = t h (t - 1),
// A and B cubics in d = |dot| with the coefficients of §Slerp fit.
const SLERP_FIT = [0.88969093561172485, -2.1525733470916748, 1.6373478174209595, -0.37448567152023315,
                   0.84125202894210815, -1.0583804845809937, 0.25976836681365967, -0.042641405016183853];
function fitAlpha(t, d) {
  const c = SLERP_FIT;
  const h = f(t - 0.5), g = f(f(t * h) * f(t - 1));
  const A = f(c[0] + f(d * f(c[1] + f(d * f(c[2] + f(d * c[3]))))));
  const B = f(c[4] + f(d * f(c[5] + f(d * f(c[6] + f(d * c[7]))))));
  return f(t + f(g * f(f(A * f(h * h)) + B)));
}

function nlerp(a, b, t0, fit) {
  const dot = f(f(f(f(a[0] * b[0]) + f(a[1] * b[1])) + f(a[2] * b[2])) + f(a[3] * b[3]));
  const t = fit ? fitAlpha(t0, dot < 0 ? -dot : dot) : t0;
  const s = dot < 0 ? -t : t, u = f(1 - t);
  return normalize(a.map((v, i) => f(f(v * u) + f(b[i] * s))));
}

// q / |q| in binary32, the identity for a zero (or non-finite) length (§Sampling semantics step 5, §Curves).
function normalize(r) {
  const len2 = f(f(f(f(r[0] * r[0]) + f(r[1] * r[1])) + f(r[2] * r[2])) + f(r[3] * r[3]));
  if (!(len2 > 0)) return [0, 0, 0, 1];
  const inv = f(1 / f(Math.sqrt(len2)));
  return r.map((v) => f(v * inv));
}
