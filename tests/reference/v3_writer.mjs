// sinew — a test-only writer of small version-3 blobs (docs/format.md), for the reference decoder's
// tests until the C encoder writes version 3, and for malformed cases after. It lays out what it is
// given (knot codes, residual fields, ranges, constants) and computes nothing a decoder computes:
// no quantization, no prediction. `layout` gives the blob offset of every part, for byte patches;
// `reseal` recomputes the checksums after one.
import { xxh32 } from '../../docs/reference_decoder.mjs';

class Bytes {
  constructor() { this.a = []; }
  get length() { return this.a.length; }
  u8(v) { this.a.push(v & 255); return this; }
  u16(v) { return this.u8(v).u8(v >>> 8); }
  u32(v) { return this.u16(v & 0xffff).u16(v >>> 16); }
  f32(v) { const d = new DataView(new ArrayBuffer(4)); d.setFloat32(0, v, true); for (let i = 0; i < 4; ++i) this.u8(d.getUint8(i)); return this; }
  f64(v) { const d = new DataView(new ArrayBuffer(8)); d.setFloat64(0, v, true); for (let i = 0; i < 8; ++i) this.u8(d.getUint8(i)); return this; }
  f24(v) { const d = new DataView(new ArrayBuffer(4)); d.setFloat32(0, v, true); for (let i = 1; i < 4; ++i) this.u8(d.getUint8(i)); return this; } // Short_constants
  bf16(v) { const d = new DataView(new ArrayBuffer(4)); d.setFloat32(0, v, true); return this.u16(d.getUint16(2, true)); } // Half_ranges
  pad4() { while (this.a.length % 4) this.u8(0); return this; }
  append(other) { for (const b of other.a ?? other) this.a.push(b); return this; }
}

class Bits {
  constructor() { this.bits = []; }
  put(value, width) { for (let i = 0; i < width; ++i) this.bits.push(Math.floor(value / 2 ** i) % 2); }
  bytes() {
    const out = new Uint8Array(Math.ceil(this.bits.length / 8));
    this.bits.forEach((b, i) => { out[i >> 3] |= b << (i & 7); });
    return out;
  }
}

const CLIP_FLAGS = { looping: 1, rateF64: 8, lastRepeatsFirst: 16, paged: 32, trackRounding: 64, tiered: 128, halfRanges: 256,
                     shortConstants: 512, midpoint: 1024, timeMap: 2048, overBound: 4096, slerpFit: 8192, nodeMap: 16384, scalarMap: 32768 };

// The animated tracks of a clip, in order (§Descriptors): listed nodes' kind-3 sub-tracks, then listed scalars.
export function animatedTracks(rig, clip) {
  const tracks = [];
  clip.nodes.forEach((n) => n && n.kinds.forEach((k, sub) => { if (k === 3) tracks.push({ type: sub, components: 3 }); }));
  clip.scalars.forEach((s, i) => { if (s && s.kind === 3) tracks.push({ type: 3, components: rig.scalarComponents[i] }); });
  return tracks;
}

// Stored slots of a track in one segment, from its descriptor fields.
function slotBits(track, seg) {
  const w = seg.widths;
  if (track.type === 0) return w[0] === 31 ? [32, 32, 32, 32] : w.slice(0, 3);
  return w.slice(0, track.components).map((x) => (x === 31 ? 32 : x));
}

function writeSegment(rig, clip, seg, length, lone) {
  const out = new Bytes(), tracks = animatedTracks(rig, clip), midpoint = !!clip.flags.midpoint;
  if (seg.tracks.length !== tracks.length) throw new Error('writer: a segment needs one entry per animated track');
  seg.tracks.forEach((st, i) => {
    const w = st.widths, field3 = tracks[i].type === 0 ? (st.dropped ?? 0) : (w[3] ?? 0);
    const d = w[0] | (w[1] << 5) | (w[2] << 10) | (field3 << 15) | ((st.decimation ?? 0) << 20) | ((st.reserved ?? 0) << 22);
    out.u8(d).u8(d >>> 8).u8(d >>> 16);
    if (midpoint) { const s = st.shifts ?? [0, 0, 0, 0]; out.u16(s[0] | (s[1] << 4) | (s[2] << 8) | (s[3] << 12)); }
  });
  if (!lone) seg.tracks.forEach((st, i) => { for (let k = 0; k < tracks[i].components; ++k) out.u8(st.ranges[k][0]).u8(st.ranges[k][1]); });
  // §Bit stream: per decimation level, K rows in knot order (with Midpoint_knots the odd knots before the
  // last are predicted: residual rows)
  const bits = new Bits();
  for (let level = 0; level < 4; ++level) {
    const level_ = seg.tracks.map((st, i) => ({ st, t: tracks[i] })).filter(({ st }) => (st.decimation ?? 0) === level);
    if (!level_.length) continue;
    const K = Math.ceil(length / 2 ** level) + 1, P = midpoint ? Math.floor((K - 1) / 2) : 0;
    for (const { st } of level_) {
      if (st.plain.length !== K - P || (st.residuals ?? []).length !== P) throw new Error(`writer: level ${level} needs ${K - P} plain knots and ${P} residuals`);
    }
    for (let i = 0; i < K; ++i) {
      for (const { st, t } of level_) {
        if (P && i % 2 === 1 && i < K - 1) slotBits(t, st).forEach((b, k) => bits.put(st.residuals[(i - 1) / 2][k], b - (st.shifts ?? [0, 0, 0, 0])[k]));
        else slotBits(t, st).forEach((b, k) => bits.put(st.plain[P ? (i + 1) >> 1 : i][k], b));
      }
    }
  }
  out.append(bits.bytes());
  if (seg.extra) out.append(seg.extra); // malformed: bytes past the bit stream
  return out;
}

function writeRig(rig, clipCount) {
  const out = new Bytes(), N = rig.nodeCount, comps = rig.scalarComponents, S = comps.length;
  const parts = {};
  const has = { parents: rig.parents, nodeSources: rig.nodeSources, rest: rig.rest, shells: rig.shells,
                scalarSources: rig.scalarSources, names: rig.names, scalarRest: rig.scalarRest };
  const flags = Object.values(has).reduce((a, v, bit) => a | (v ? 1 << bit : 0), 0) | (rig.wide ? 128 : 0) | (rig.extraFlags ?? 0);
  out.u16(N).u16(S).u16(flags).u16(rig.reserved ?? 0).f64(rig.unitScale ?? 1);
  for (const c of comps) out.u8(c - 1);
  out.pad4();
  const wide = !!rig.wide, src = (v) => (wide ? out.u32(v) : out.u16(v));
  if (rig.parents) { parts.Parents = out.length; rig.parents.forEach((p) => out.u16(p < 0 ? 0xffff : p)); out.pad4(); }
  if (rig.nodeSources) { parts.Node_sources = out.length; rig.nodeSources.forEach((s) => src(s < 0 ? (wide ? 0xffffffff : 0xffff) : s)); out.pad4(); }
  if (rig.rest) { parts.Rest = out.length; rig.rest.pose.forEach((v) => out.f32(v)); rig.rest.scalars.forEach((v) => out.f32(v)); out.pad4(); }
  if (rig.shells) { parts.Shells = out.length; rig.shells.nodes.forEach(([d, p]) => out.f32(d).f32(p)); rig.shells.scalars.forEach((p) => out.f32(p)); out.pad4(); }
  if (rig.scalarSources) {
    parts.Scalar_sources = out.length;
    out.u16(rig.scalarSources.length).u16(0);
    for (const run of rig.scalarSources) { src(run.count); src(run.node); src(run.target); }
    out.pad4();
  }
  if (rig.names) {
    parts.Names = out.length;
    const all = [...rig.names.nodes, ...rig.names.scalars, ...rig.names.clips];
    if (all.length !== N + S + clipCount) throw new Error('writer: a name (or null) per node, scalar track and clip');
    const strings = [], offsets = [];
    for (const name of all) {
      if (name === null) { offsets.push(0xffffffff); continue; }
      offsets.push(strings.length);
      strings.push(...new TextEncoder().encode(name), 0);
    }
    out.u32(strings.length);
    offsets.forEach((o) => out.u32(o));
    out.append(strings).pad4();
  }
  if (rig.scalarRest) { parts.Scalar_rest = out.length; rig.scalarRest.forEach((v) => out.f32(v)); out.pad4(); }
  return { out, parts };
}

function writeClip(rig, clip, restDefaults, blobPaged, pageOffsets) {
  const out = new Bytes(), at = {}, N = rig.nodeCount, S = rig.scalarComponents.length;
  const f = clip.flags;
  const flagBits = Object.entries(CLIP_FLAGS).reduce((a, [name, bit]) => a | (f[name] ? bit : 0), 0) | ((f.rounding ?? 0) << 1) | (f.extra ?? 0)
    | (blobPaged ? CLIP_FLAGS.paged : 0) | (clip.tiers ? CLIP_FLAGS.tiered : 0) | (clip.timeMap ? CLIP_FLAGS.timeMap : 0)
    | (clip.nodeMap ? CLIP_FLAGS.nodeMap : 0) | (clip.scalarMap ? CLIP_FLAGS.scalarMap : 0);
  out.u32(0).u32(flagBits).u32(clip.sampleCount).u16(clip.segmentLength).u16(clip.reserved ?? 0);
  if (f.rateF64) out.f64(clip.sampleRate); else out.f32(clip.sampleRate);
  const listedNodes = clip.nodes.map((n) => !!n), listedScalars = clip.scalars.map((s) => !!s);
  if (clip.nodes.length !== N || clip.scalars.length !== S) throw new Error('writer: clip.nodes / clip.scalars need an entry (or null) per rig node / scalar');
  const map = (listed) => { for (let b = 0; b < Math.ceil(listed.length / 8); ++b) out.u8(listed.slice(8 * b, 8 * b + 8).reduce((a, x, i) => a | (x ? 1 << i : 0), 0)); };
  at.nodeMap = out.length;
  if (clip.nodeMap) map(listedNodes); else if (listedNodes.includes(false)) throw new Error('writer: unlisted nodes need nodeMap');
  at.scalarMap = out.length;
  if (clip.scalarMap) map(listedScalars); else if (listedScalars.includes(false)) throw new Error('writer: unlisted scalars need scalarMap');
  at.descriptors = out.length;
  for (const n of clip.nodes) if (n) out.u8(n.kinds[0] | (n.kinds[1] << 2) | (n.kinds[2] << 4) | ((n.dropped ?? 0) << 6));
  for (const s of clip.scalars) if (s) out.u8(s.kind | ((s.reserved ?? 0) << 2));
  at.rounding = out.length;
  if (f.trackRounding) for (const x of [...clip.nodes, ...clip.scalars]) if (x) out.u8(x.rounding ?? 15);
  out.pad4();
  // §Constants: kind 2, and kind 1 when defaults are stored; 24-bit values for kind 2 with Short_constants
  at.constants = out.length;
  const stored = (kind) => kind === 2 || (kind === 1 && !restDefaults);
  const put = (kind, v) => (kind === 2 && f.shortConstants ? out.f24(v) : out.f32(v));
  for (const n of clip.nodes) if (n) n.kinds.forEach((k, sub) => { if (stored(k)) n.constants[sub].forEach((v) => put(k, v)); });
  for (const s of clip.scalars) if (s && stored(s.kind)) s.constant.forEach((v) => put(s.kind, v));
  out.pad4();
  at.ranges = out.length;
  for (const r of clip.ranges) { for (const v of [...r.min, ...r.extent]) if (f.halfRanges) out.bf16(v); else out.f32(v); }
  at.timeMap = out.length;
  const stored_ = clip.sampleCount + (f.looping ? 1 : 0);
  if (clip.timeMap) {
    const { times, samples } = clip.timeMap; // samples: of marks 1 .. M - 2
    out.u32(clip.timeMap.markCount ?? times.length);
    times.forEach((t) => out.f32(t));
    if (times.length < stored_) samples.forEach((s) => (stored_ <= 65536 ? out.u16(s) : out.u32(s)));
    out.pad4();
  }
  at.segments = out.length;
  const segmentCount = Math.max(1, Math.ceil((stored_ - 1) / clip.segmentLength)), lone = segmentCount === 1;
  const lengthOf = (s) => Math.min(clip.segmentLength, stored_ - 1 - s * clip.segmentLength);
  const pages = [];
  if (blobPaged) {
    // page table (then tier table): pages of whole segments, each tier's pages after the previous tier's
    const tiers = clip.tiers ?? [{ segments: clip.segments, pages: clip.pages }];
    for (const tier of tiers) {
      let first = 0;
      for (const count of tier.pages) {
        const page = new Bytes(), segs = [];
        for (let k = 0; k < count; ++k) segs.push(writeSegment(rig, clip, tier.segments[first + k], lengthOf(first + k), lone));
        let o = 4 * (count + 1);
        page.u32(o);
        for (const s of segs) page.u32((o += s.length));
        segs.forEach((s) => page.append(s));
        page.append(new Uint8Array(8)).pad4();
        pages.push({ first, count, page });
        first += count;
      }
    }
    out.u32(pages.length);
    at.pageTable = out.length;
    pages.forEach((p, i) => out.u32(p.first).u32(p.count).u32(pageOffsets ? pageOffsets[i] : 0).u32(p.page.length).u32(0));
    if (clip.tiers) {
      at.tierTable = out.length;
      out.u32(clip.tiers.length);
      let firstPage = 0;
      for (const tier of clip.tiers) { out.u32(firstPage).f32(tier.bound ?? 0).f32(tier.maxError ?? 0); firstPage += tier.pages.length; }
    }
  } else {
    const segs = clip.segments.map((seg, s) => writeSegment(rig, clip, seg, lengthOf(s), lone));
    if (segs.length !== segmentCount) throw new Error(`writer: ${segmentCount} segments expected`);
    at.segmentStarts = [];
    if (!lone) {
      let o = at.segments + 4 * (segmentCount + 1);
      out.u32(o);
      for (const s of segs) { at.segmentStarts.push(o); out.u32((o += s.length)); }
    } else at.segmentStarts.push(at.segments);
    segs.forEach((s) => out.append(s));
  }
  if (clip.trailing) out.append(clip.trailing); // malformed: bytes past the clip's end
  const bytes = new Uint8Array(out.a);
  new DataView(bytes.buffer).setUint32(0, clip.clipSize ?? bytes.length, true);
  return { bytes, at, pages };
}

// desc: { restDefaults, paged, rig: {...}, clips: [...] } -> { bytes, layout }
export function writeBlob(desc) {
  const paged = !!desc.paged, headerSize = paged ? 24 : 20;
  const build = (pageOffsets) => desc.clips.map((c, i) => writeClip(desc.rig, c, !!desc.restDefaults, paged, pageOffsets && pageOffsets[i]));
  // first pass: the resident part's layout (page offsets do not change sizes); second: with page offsets
  let clips = build(null);
  const layout = { clips: [] };
  let o = headerSize + 4 * clips.length;
  const starts = clips.map((c) => { const s = o; o = Math.ceil((o + c.bytes.length) / 4) * 4; return s; });
  const clipsEnd = starts[starts.length - 1] + clips[clips.length - 1].bytes.length;
  const rigAt = Math.ceil(clipsEnd / 4) * 4;
  const rig = writeRig(desc.rig, clips.length);
  const residentEnd = Math.ceil(Math.max(rigAt + rig.out.length, clipsEnd + 8) / 4) * 4 + (desc.extraTail ?? 0);
  let pageAt = residentEnd;
  const pageOffsets = clips.map((c) => c.pages.map((p) => { const at = pageAt; pageAt += p.page.length; return at; }));
  if (paged) clips = build(pageOffsets);
  const total = paged ? pageAt : residentEnd;
  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  bytes.set([0x53, 0x4e, 0x45, 0x57]);
  view.setUint16(4, desc.version ?? 3, true);
  view.setUint16(6, (paged ? 1 : 0) | (desc.restDefaults ? 2 : 0) | (desc.blobFlags ?? 0), true);
  view.setUint32(8, total, true);
  view.setUint32(16, clips.length, true);
  if (paged) view.setUint32(20, residentEnd, true);
  clips.forEach((c, i) => {
    view.setUint32(headerSize + 4 * i, starts[i], true);
    bytes.set(c.bytes, starts[i]);
    const at = Object.fromEntries(Object.entries(c.at).map(([k, v]) => [k, Array.isArray(v) ? v.map((x) => starts[i] + x) : starts[i] + v]));
    layout.clips.push({ start: starts[i], ...at, pages: c.pages.map((p, k) => ({ at: pageOffsets[i][k], size: p.page.length })) });
    c.pages.forEach((p, k) => bytes.set(new Uint8Array(p.page.a), pageOffsets[i][k]));
  });
  bytes.set(new Uint8Array(rig.out.a), rigAt);
  layout.rig = rigAt;
  layout.parts = Object.fromEntries(Object.entries(rig.parts).map(([k, v]) => [k, rigAt + v]));
  layout.residentEnd = residentEnd;
  reseal(bytes, layout);
  return { bytes, layout };
}

// Recompute every page checksum (seed: the page's index in its clip) and the blob checksum.
export function reseal(bytes, layout) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const clip of layout.clips) {
    clip.pages.forEach((p, k) => {
      if (p.at + p.size <= bytes.length) view.setUint32(clip.pageTable + 20 * k + 16, xxh32(bytes, p.at, p.at + p.size, k), true);
    });
  }
  view.setUint32(12, xxh32(bytes, 16, layout.residentEnd), true);
  return bytes;
}
