// sinew — the reference decoder on hand-built version-3 blobs (tests/reference/v3_writer.mjs): the rig,
// Rest_defaults, node and scalar maps, rows, midpoint residuals modulo the slot width, compact time maps,
// pages and tiers; and every "must" of docs/format.md that a malformed blob can break, each rejected
// with the error that names it. The C library is compared on version-3 blobs in reference_decoder.test.mjs.
// Run: node --test tests/reference/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decode, SinewDecodeError } from '../../docs/reference_decoder.mjs';
import { writeBlob, reseal, animatedTracks } from './v3_writer.mjs';

const f = Math.fround;

// ---------------------------------------------------------------------------------------------
// Blob descriptions. Knot codes are given whole (`knots[i][slot]`); `encode` turns them into the
// plain rows and residual rows the format stores: with Midpoint_knots, a track without any Shift stores its
// predicted knots whole, one with some Shift their residuals (q - midpoint + bias, modulo 2^bits).

function encode(seg, track, length, midpoint) {
  const bits = track.type === 0 && seg.widths[0] === 31 ? [32, 32, 32, 32]
    : seg.widths.slice(0, track.type === 0 ? 3 : track.components).map((w) => (w === 31 ? 32 : w));
  const K = Math.ceil(length / 2 ** (seg.decimation ?? 0)) + 1;
  if (seg.knots.length !== K) throw new Error(`test: ${K} knots expected, ${seg.knots.length} given`);
  if (!midpoint) return { ...seg, plain: seg.knots, residuals: [] };
  const P = Math.floor((K - 1) / 2), shifts = seg.shifts ?? [0, 0, 0, 0];
  const plain = [], residuals = [];
  for (let i = 0; i < K; ++i) if (i % 2 === 0 || i === K - 1) plain.push(seg.knots[i]);
  if (!shifts.some((x) => x > 0)) return { ...seg, plain, residuals: Array.from({ length: P }, (_, g) => seg.knots[2 * g + 1]) };
  for (let g = 0; g < P; ++g) {
    residuals.push(bits.map((b, k) => {
      const a = plain[g][k], c = plain[g + 1][k], rw = b - shifts[k], m = 2 ** b;
      const mid = Math.floor((a + c + 1) / 2), bias = rw > 0 ? 2 ** (rw - 1) : 0;
      const r = (((seg.knots[2 * g + 1][k] - mid + bias) % m) + m) % m;
      if (r >= 2 ** rw) throw new Error(`test: knot ${2 * g + 1} slot ${k} does not fit a ${rw}-bit residual`);
      return r;
    }));
  }
  return { ...seg, plain, residuals };
}

// Fill in plain/residuals of every segment (and tier) of every clip (of a copy: desc is left as it is).
function build(original) {
  const desc = structuredClone(original);
  for (const clip of desc.clips) {
    const tracks = animatedTracks(desc.rig, clip);
    const stored = clip.sampleCount + (clip.flags.looping ? 1 : 0);
    const length = (s) => Math.min(clip.segmentLength, stored - 1 - s * clip.segmentLength);
    const fill = (segs) => segs.forEach((seg, s) => { seg.tracks = seg.tracks.map((st, i) => encode(st, tracks[i], length(s), clip.flags.midpoint)); });
    if (clip.tiers) clip.tiers.forEach((tier) => fill(tier.segments)); else fill(clip.segments);
  }
  return writeBlob(desc);
}

// Deterministic knot codes: K knots of the given slot widths.
function codes(K, bits, seed) {
  return Array.from({ length: K }, (_, i) => bits.map((b, k) => (b === 0 ? 0 : (seed * 7 + i * 13 + k * 5 + i * i) % 2 ** b)));
}

// The rig of most tests: 4 nodes, 2 scalar tracks (1 and 4 components), every part.
function baseRig() {
  return {
    nodeCount: 4, scalarComponents: [1, 4], unitScale: 1,
    parents: [-1, 0, 1, 0], nodeSources: [3, 7, 8, -1],
    rest: { pose: [0, 0, 0, 1, 0, 0, 0, 1, 1, 1,
                   0.5, 0.5, 0.5, 0.5, 1, 2, -1, 2, 2, 2,
                   0, 0, 0, 1, 2, 4, -2, 1, 1, 1,
                   0, 0.6, 0, 0.8, 3, 6, -3, 1, 1, 1],
            scalars: [0.25, 0.1, 0.2, 0.3, 0.4] },
    shells: { nodes: [[0.03, 0], [0.05, 1e-4], [0, 0], [0.03, 0]], scalars: [1e-4, 0] },
    scalarSources: [{ count: 1, node: 5, target: 2 }, { count: 1, node: 0xfffe, target: 0 }],
    names: { nodes: ['root', 'hips', 'spine', null], scalars: ['smile', '/materials/0/pbrMetallicRoughness/baseColorFactor'], clips: ['walk'] },
  };
}

// Lone-segment clip over baseRig: node 1 and scalar 0 unlisted; rows at decimation levels 0, 1 and 3.
// Every step is a power of two (checked below), so knots decode exactly.
const STEP5 = f(31 / 32); // extent of a 5-bit slot whose step is 1/32
function baseClip({ midpoint = false } = {}) {
  const segmentLength = 8;
  const seg = {
    tracks: [
      { widths: [5, 5, 5], dropped: 3, decimation: 0, knots: codes(9, [5, 5, 5], 1) },                        // node 0 rotation
      { widths: [4, 0, 8], decimation: 1, knots: codes(5, [4, 0, 8], 2), ranges: null },                        // node 0 translation
      { widths: [3, 3, 3], decimation: 0, knots: codes(9, [3, 3, 3], 3) },                                      // node 3 translation
      { widths: [0, 0, 0], decimation: 3, knots: codes(2, [0, 0, 0], 4) },                                      // node 3 scale
      { widths: [2, 3, 4, 5], decimation: 1, knots: codes(5, [2, 3, 4, 5], 5) },                                // scalar 1
    ],
  };
  if (midpoint) { // node 3's translation: residuals narrower than its slots (shifts 1, 0, 2), predicted knots that fit
    const st = seg.tracks[2];
    st.shifts = [1, 0, 2, 0];
    st.knots = st.knots.map((q, i) => (i % 2 === 1 && i < 8 ? q.map((v, k) => {
      const mid = Math.floor((st.knots[i - 1][k] + st.knots[i + 1][k] + 1) / 2);
      return [mid + 1, (v + 3) % 8, mid][k] % 8;
    }) : q));
  }
  return {
    flags: { midpoint, slerpFit: false }, sampleCount: 9, segmentLength, sampleRate: 30,
    nodeMap: true, scalarMap: true,
    nodes: [{ kinds: [3, 3, 1], constants: [null, null, [3, 4, 5]] }, null,
            { kinds: [2, 0, 2], dropped: 1, constants: [[0.5, 0.5, 0.5], null, [1, 2, 3]] },
            { kinds: [1, 3, 3], constants: [[0.5, 0.5, 0.5], null, null] }],
    scalars: [null, { kind: 3 }],
    ranges: [{ min: [-0.5, -0.5, -0.5], extent: [STEP5, STEP5, STEP5] }, { min: [0, 7, -1], extent: [15, 3.5, 255] },
             { min: [1, 2, 3], extent: [3.5, 3.5, 3.5] }, { min: [1.5, 1.5, 1.5], extent: [0, 0, 0] },
             { min: [0, 0, 0, 0], extent: [3, 7, 15, 31] }],
    segments: [seg],
  };
}

function baseDesc(options = {}) {
  return { restDefaults: true, rig: baseRig(), clips: [baseClip(options)] };
}

// Expected value of track `t` at knot i (exact for this clip's power-of-two steps).
function knotValue(clip, ti, i) {
  const st = clip.segments[0].tracks[ti], r = clip.ranges[ti];
  const step = (k) => (st.widths[k] === 0 ? 0 : r.extent[k] / (2 ** st.widths[k] - 1));
  return st.knots[i].map((q, k) => r.min[k] + q * step(k));
}

function rebuildDouble([a, b, c], dropped) {
  const q = [a, b, c];
  q.splice(dropped, 0, Math.sqrt(Math.max(0, 1 - a * a - b * b - c * c)));
  const n = Math.hypot(...q);
  return q.map((v) => v / n);
}

function assertClose(got, want, tolerance, label) {
  assert.equal(got.length, want.length, label);
  for (let i = 0; i < want.length; ++i) assert.ok(Math.abs(got[i] - want[i]) <= tolerance, `${label}[${i}]: ${got[i]} vs ${want[i]}`);
}

function assertExact(got, want, label) {
  assert.deepEqual(Array.from(got), want.map(f), label);
}

// Where the decoder must put what, at knot sample k of baseClip (every track at a knot: k even, or 8).
function expectedBasePose(clip, k, { restDefaults = true, rest = baseRig().rest } = {}) {
  const at = (ti) => knotValue(clip, ti, k / 2 ** (clip.segments[0].tracks[ti].decimation));
  const n = (j) => rest.pose.slice(10 * j, 10 * j + 10);
  const node0 = [...rebuildDouble(at(0), 3), ...at(1), ...(restDefaults ? n(0).slice(7) : [3, 4, 5])];
  const node1 = restDefaults ? n(1) : [0, 0, 0, 1, 0, 0, 0, 1, 1, 1];
  const node2 = [0.5, 0.5, 0.5, 0.5, 0, 0, 0, 1, 2, 3];
  const node3 = [...(restDefaults ? n(3).slice(0, 4) : [0.5, 0.5, 0.5, 0.5]), ...at(2), 1.5, 1.5, 1.5];
  return { pose: [...node0, ...node1, ...node2, ...node3], scalars: [restDefaults ? rest.scalars[0] : 0, ...at(4)] };
}

function checkBasePose(blob, clip, k, options) {
  const { pose, scalars } = blob.clips[0].samplePose(k / 30);
  const want = expectedBasePose(clip, k, options);
  assertClose(pose.subarray(0, 4), want.pose.slice(0, 4), 2e-7, `t=${k}/30 node 0 rotation`);
  assertExact(pose.subarray(4), want.pose.slice(4), `t=${k}/30 nodes`);
  assertExact(scalars, want.scalars, `t=${k}/30 scalars`);
}

test('the power-of-two steps the hand-built clips rely on', () => {
  for (const [extent, w, step] of [[1023, 10, 1], [STEP5, 5, 1 / 32], [15, 4, 1], [255, 8, 1], [3.5, 3, 0.5], [3, 2, 1], [7, 3, 1], [31, 5, 1]])
    assert.equal(f(f(extent) * f(1 / (2 ** w - 1))), step, `extent ${extent}, ${w} bits`);
});

// ---------------------------------------------------------------------------------------------
// Valid blobs

test('version 3: the rig, its parts and names', () => {
  const desc = baseDesc();
  desc.rig.wide = true;
  desc.rig.nodeSources = [70000, 7, 8, -1];
  desc.rig.scalarSources = [{ count: 1, node: 5, target: 2 }, { count: 1, node: 0xfffffffe, target: 0 }];
  const { bytes } = build(desc);
  const blob = decode(bytes);
  assert.equal(blob.version, 3);
  assert.equal(blob.restDefaults, true);
  const rig = blob.rig;
  assert.equal(rig.nodeCount, 4);
  assert.deepEqual(rig.scalarComponents, [1, 4]);
  assert.deepEqual(rig.parents, [-1, 0, 1, 0]);
  assert.deepEqual(rig.nodeSources, [70000, 7, 8, -1]);
  assert.deepEqual(Array.from(rig.rest.pose), desc.rig.rest.pose.map(f));
  assert.deepEqual(Array.from(rig.rest.scalars), desc.rig.rest.scalars.map(f));
  assert.deepEqual(rig.shells.nodes[1], { shellDistance: f(0.05), precision: f(1e-4) });
  assert.deepEqual(rig.scalarSources, [{ node: 5, target: 2 }, { node: 'pointer', target: 0 }]);
  assert.deepEqual(rig.names, desc.rig.names);
  assert.equal(blob.clips[0].name, 'walk');
  assert.equal(blob.clips[0].jointCount, 4);
  assert.deepEqual(blob.clips[0].listedNodes, [true, false, true, true]);

  // a run of several tracks: each next track starts after the previous one's components
  const rig2 = { nodeCount: 1, scalarComponents: [2, 3, 1], scalarSources: [{ count: 3, node: 4, target: 1 }],
                 names: { nodes: ['a'], scalars: ['', 'ü', null], clips: [null] } };
  const clip2 = { flags: {}, sampleCount: 1, segmentLength: 8, sampleRate: 30, nodes: [{ kinds: [0, 0, 0] }],
                  scalars: [{ kind: 0 }, { kind: 0 }, { kind: 0 }], ranges: [], segments: [{ tracks: [] }] };
  const blob2 = decode(build({ rig: rig2, clips: [clip2] }).bytes);
  assert.deepEqual(blob2.rig.scalarSources.map((s) => s.target), [1, 3, 6]);
  assert.deepEqual(blob2.rig.names.scalars, ['', 'ü', null]);
  assert.equal(blob2.rig.parents, null);
  assert.equal(blob2.rig.rest, null);
});

test('version 3: node and scalar maps, Rest_defaults, rows at three decimation levels', () => {
  const desc = baseDesc();
  const blob = decode(build(desc).bytes);
  const clip = desc.clips[0];
  assert.equal(blob.clips[0].sampleCount, 9);
  for (const k of [0, 2, 4, 6, 8]) checkBasePose(blob, clip, k);
  // between knots: translations lerp (node 0's translation at decimation 1, at sample 1: halfway)
  const a = knotValue(clip, 1, 0), b = knotValue(clip, 1, 1);
  const { pose } = blob.clips[0].samplePose(1 / 30);
  assertClose(pose.subarray(4, 7), a.map((v, i) => (v + b[i]) / 2), 1e-6, 'node 0 translation at sample 1');
  // the pose covers every rig node and scalar component
  assert.equal(pose.length, 40);
  assert.equal(blob.clips[0].samplePose(0).scalars.length, 5);
});

test('version 3 without Rest_defaults: unlisted nodes play identity, stored defaults are f32 constants', () => {
  const desc = baseDesc();
  desc.restDefaults = false;
  desc.clips[0].flags.shortConstants = true; // kind 2 in 3 bytes; stored defaults (kind 1) stay f32
  desc.clips[0].nodes[3].constants[0] = [0.5, 0.5, 0.5];
  desc.clips[0].nodes[0].constants[2] = [3, 4, 5];
  desc.clips[0].nodes[2].constants[2] = [1, 2, 3];
  const blob = decode(build(desc).bytes);
  for (const k of [0, 4, 8]) checkBasePose(blob, desc.clips[0], k, { restDefaults: false });
  // a stored default is a full f32: 1.1 is not a 24-bit value, and it must come back as f32(1.1)
  desc.clips[0].nodes[0].constants[2] = [1.1, 4, 5];
  const pose = decode(build(desc).bytes).clips[0].samplePose(0).pose;
  assert.equal(pose[7], f(1.1));
  // while a constant (kind 2) with Short_constants keeps its high 24 bits only
  desc.clips[0].nodes[2].constants[2] = [1.1, 2, 3];
  const short = decode(build(desc).bytes).clips[0].samplePose(0).pose;
  assert.notEqual(short[27], f(1.1));
  assert.ok(Math.abs(short[27] - 1.1) < 1.1 * 2 ** -15);
});

test('version 3: rest values from Scalar_rest, from the caller, or refused', () => {
  // no Rest part: a clip that plays rest values refuses to sample without them
  const desc = baseDesc();
  const rest = desc.rig.rest;
  delete desc.rig.rest;
  const bytes = build(desc).bytes;
  const blob = decode(bytes);
  assert.equal(blob.rig.rest, null);
  assert.throws(() => blob.clips[0].samplePose(0), (e) => e instanceof SinewDecodeError && e.code === 'Rest_pose');
  // the caller's rest pose (a packed glTF's document): the same pose as with the Rest part
  const withCaller = decode(bytes, { restPose: rest.pose, restScalars: rest.scalars });
  for (const k of [0, 4, 8]) checkBasePose(withCaller, desc.clips[0], k);
  // Scalar_rest gives the scalars' rest values, the caller the nodes'
  desc.rig.scalarRest = [0.75, 1, 2, 3, 4];
  const withScalarRest = decode(build(desc).bytes, { restPose: rest.pose, restScalars: [9, 9, 9, 9, 9] });
  assert.equal(withScalarRest.clips[0].samplePose(0).scalars[0], 0.75);
  // nodes without scalars are refused too
  assert.throws(() => decode(build(desc).bytes).clips[0].samplePose(0), /Rest_pose: clip 0 plays the rest value of node 0 scale/);
  assert.throws(() => decode(bytes, { restPose: [1, 2, 3] }), RangeError);
  // the rig's Rest part comes first: the caller's values are not used where the rig has them
  const withBoth = decode(build(baseDesc()).bytes, { restPose: new Array(40).fill(7), restScalars: new Array(5).fill(7) });
  checkBasePose(withBoth, desc.clips[0], 0);
  // a clip that plays no rest value samples without any
  const all = baseDesc();
  delete all.rig.rest;
  const c = all.clips[0];
  c.nodeMap = c.scalarMap = false;
  c.nodes = [{ kinds: [0, 0, 2], constants: [null, null, [1, 1, 1]] }, { kinds: [0, 0, 0] }, { kinds: [0, 0, 0] }, { kinds: [0, 0, 0] }];
  c.scalars = [{ kind: 0 }, { kind: 2, constant: [1, 2, 3, 4] }];
  c.ranges = [];
  c.segments = [{ tracks: [] }];
  const plain = decode(build(all).bytes).clips[0].samplePose(0.1);
  assert.deepEqual(Array.from(plain.scalars), [0, 1, 2, 3, 4]);
});

test('version 3: midpoint residuals in residual rows, rebuilt modulo the slot width', () => {
  const desc = baseDesc({ midpoint: true });
  const clip = desc.clips[0];
  const st = clip.segments[0].tracks[2]; // shifts 1, 0, 2
  const blob = decode(build(desc).bytes);
  for (let k = 0; k <= 8; ++k) {
    const { pose } = blob.clips[0].samplePose(k / 30);
    assertExact(pose.subarray(34, 37), st.knots[k].map((q, i) => clip.ranges[2].min[i] + q * 0.5), `node 3 translation at knot ${k}`);
  }
  for (const k of [0, 2, 4, 6, 8]) checkBasePose(blob, clip, k);
  // node 0's rotation has no Shift: its predicted (odd) knots are stored whole in the residual rows
  for (const k of [1, 3, 5, 7]) {
    const { pose } = blob.clips[0].samplePose(k / 30);
    assertClose(pose.subarray(0, 4), rebuildDouble(knotValue(clip, 0, k), 3), 2e-7, `node 0 rotation at predicted knot ${k}`);
  }

  // wrapping: a = b = 15 and q = 0 needs mid + r - bias = 16 (mod 16 = 0); a = b = 0 and q = 15 needs -1
  const wrap = baseDesc({ midpoint: true });
  const w = wrap.clips[0].segments[0].tracks[4]; // scalar 1: slots of 2, 3, 4, 5 bits, decimation 1 (5 knots)
  w.shifts = [0, 0, 0, 1]; // some Shift: every slot stores a residual (slot 3 in 4 bits)
  w.knots = [[3, 7, 15, 31], [0, 0, 0, 0], [3, 7, 15, 31], [2, 4, 8, 16], [0, 0, 0, 0]];
  const wrapped = decode(build(wrap).bytes).clips[0];
  assertExact(wrapped.samplePose(2 / 30).scalars.subarray(1), [0, 0, 0, 0], 'knot 1: over the top, wrapped to 0');
  w.knots = [[0, 0, 0, 0], [3, 7, 15, 31], [0, 0, 0, 0], [3, 7, 15, 31], [0, 0, 0, 0]];
  assertExact(decode(build(wrap).bytes).clips[0].samplePose(2 / 30).scalars.subarray(1), [3, 7, 15, 31], 'knot 1: under zero, wrapped to the top');
  // the residual fields really are what was checked: knot 1's fields (bias 2, 4, 8, 8) are 1, 3, 7, 7
  assert.deepEqual(encodeOne(w, 8, true).residuals[0], [1, 3, 7, 7]);
});

function encodeOne(seg, length, midpoint) {
  return encode(seg, { type: 3, components: 4 }, length, midpoint);
}

test('version 3: a raw rotation and raw scalar slots, their predicted knots stored whole', () => {
  const bitsOf = (v) => { const d = new DataView(new ArrayBuffer(4)); d.setFloat32(0, v); return d.getUint32(0); };
  const rig = { nodeCount: 1, scalarComponents: [2] };
  const rotations = [[0, 0, 0, 1], [0.6, 0, 0, 0.8], [0, 1, 0, 0], [-0.5, 0.5, -0.5, 0.5], [0.8, 0, 0.6, 0]];
  const clip = {
    flags: { midpoint: true }, sampleCount: 5, segmentLength: 4, sampleRate: 1,
    nodes: [{ kinds: [3, 0, 0] }], scalars: [{ kind: 3 }],
    ranges: [{ min: [0, 0, 0], extent: [0, 0, 0] }, { min: [0, -1], extent: [0, 3] }],
    segments: [{ tracks: [
      { widths: [31, 31, 31], knots: rotations.map((q) => q.map(bitsOf)) },
      { widths: [31, 2], knots: [[bitsOf(-2.5), 0], [bitsOf(1e30), 3], [bitsOf(0.125), 1], [bitsOf(-0), 2], [bitsOf(7), 3]] },
    ] }],
  };
  const blob = decode(build({ rig, clips: [clip] }).bytes);
  rotations.forEach((q, k) => assertExact(blob.clips[0].samplePose(k).pose.subarray(0, 4), q, `raw rotation at knot ${k}`));
  // (at knot 3, alpha = 0: k0 + (k1 - k0) * 0 turns the stored -0 into +0, as step 5 computes it)
  const scalars = [[-2.5, -1], [1e30, 2], [0.125, 0], [0, 1], [7, 2]];
  scalars.forEach((s, k) => assert.deepEqual(Array.from(blob.clips[0].samplePose(k).scalars), s.map(f), `scalar at knot ${k}`));
});

test('version 3: several segments, segment ranges, Dropped per segment, Track_rounding, Rate_f64', () => {
  const rig = { nodeCount: 2, scalarComponents: [2], parents: [-1, 0] };
  const rot = (dropped, seed) => ({ widths: [6, 6, 6], dropped, ranges: [[0, 255], [51, 102], [0, 255]], knots: codes(9, [6, 6, 6], seed) });
  const clip = {
    flags: { rateF64: true, trackRounding: true, rounding: 0 }, sampleCount: 20, segmentLength: 8, sampleRate: 1 / 3,
    nodes: [{ kinds: [3, 2, 0], constants: [null, [1, 2, 3], null] }, { kinds: [0, 3, 0], rounding: 1 }], // node 1 floor
    scalars: [{ kind: 3, rounding: 15 }],
    ranges: [{ min: [-1, -0.5, -0.25, 0], extent: [2, 1, 0.5, 1] }, { min: [0, 0, 0], extent: [7, 7, 7] }, { min: [0, 0], extent: [3, 3] }],
    segments: [0, 1, 2].map((s) => {
      const K = s < 2 ? 9 : 4;
      return { tracks: [
        { ...rot([3, 0, 2][s], s), knots: codes(K, [6, 6, 6], s) },
        { widths: [3, 3, 3], ranges: [[0, 255], [0, 255], [0, 255]], knots: codes(K, [3, 3, 3], 10 + s) },
        { widths: [2, 2], ranges: [[0, 255], [255, 0]], knots: codes(K, [2, 2], 20 + s) },
      ] };
    }),
  };
  const { bytes } = build({ rig, clips: [clip] });
  const c = decode(bytes).clips[0];
  assert.equal(c.segmentCount, 3);
  assert.equal(c.duration, 19 * 3);
  for (let k = 0; k < 20; ++k) {
    const s = Math.min(Math.floor(k / 8), 2), i = k - 8 * s, seg = clip.segments[s].tracks;
    const { pose, scalars } = c.samplePose(3 * k);
    // rotation: slot k holds component k + (k >= Dropped); its clip range is that component's
    const dropped = seg[0].dropped, comps = [0, 1, 2, 3].filter((x) => x !== dropped);
    const slots = seg[0].knots[i].map((q, k2) => {
      const [rmin, rext] = seg[0].ranges[k2], min = clip.ranges[0].min[comps[k2]], extent = clip.ranges[0].extent[comps[k2]];
      const lo = min + extent * (rmin / 255), ext = extent * (rext / 255);
      return lo + q * (ext / 63);
    });
    const want = rebuildDouble(slots, dropped);
    assertClose(pose.subarray(0, 4), want, 5e-7, `sample ${k} rotation (segment ${s}, components ${comps})`);
    assertExact(pose.subarray(4, 7), [1, 2, 3], 'node 0 translation constant');
    assertExact(pose.subarray(14, 17), seg[1].knots[i], `sample ${k} node 1 translation`);
    assertExact(scalars, [seg[2].knots[i][0], 3], `sample ${k} scalar (second slot: Range_min 255, Range_extent 0)`);
  }
  // floor rounding on node 1: just before sample 5 it holds sample 4; the scalar (clip rounding: none) moves on
  const before = c.samplePose(3 * 5 - 0.3);
  assertExact(before.pose.subarray(14, 17), clip.segments[0].tracks[1].knots[4], 'floor holds sample 4');
  assert.notDeepEqual(Array.from(before.scalars), Array.from(c.samplePose(3 * 4).scalars));
});

test('version 3: compact time maps (every sample a mark; u16 and u32 mark samples)', () => {
  const rig = { nodeCount: 1, scalarComponents: [] };
  const make = (sampleCount, timeMap, segmentLength = 8) => ({
    flags: {}, sampleCount, segmentLength, sampleRate: 10, timeMap,
    nodes: [{ kinds: [0, 3, 0] }], scalars: [], ranges: [{ min: [0, 0, 0], extent: [1023, 1023, 1023] }],
    segments: Array.from({ length: Math.max(1, Math.ceil((sampleCount - 1) / segmentLength)) }, (_, s) => {
      const len = Math.min(segmentLength, sampleCount - 1 - s * segmentLength);
      return { tracks: [{ widths: [10, 10, 10], ranges: Array(3).fill([0, 255]),
                          knots: Array.from({ length: len + 1 }, (_, i) => [(s * segmentLength + i) % 1024, 0, 0]) }] };
    }),
  });
  // every sample a mark: no sample fields
  const times = [0, 0.5, 0.75, 2, 2.25];
  let c = decode(build({ rig, clips: [make(5, { times, samples: [] })] }).bytes).clips[0];
  assert.deepEqual(c.marks, times.map((time, sample) => ({ time, sample })));
  assert.equal(c.samplePose(2).pose[4], 3);
  assert.equal(c.samplePose(0.625).pose[4], 1.5);
  assert.equal(c.duration, 2.25);
  // marks 1 .. M - 2 stored as u16: samples 0, 4, 10 at 0, 1, 1.5 s
  c = decode(build({ rig, clips: [make(11, { times: [0, 1, 1.5], samples: [4] })] }).bytes).clips[0];
  assert.deepEqual(c.marks.map((m) => m.sample), [0, 4, 10]);
  assert.equal(c.samplePose(0.5).pose[4], 2);
  assert.equal(c.samplePose(1.25).pose[4], 7);
  // more than 65536 stored samples: u32 mark samples (a clip of 70,000 samples in 69 segments)
  const long = make(70000, { times: [0, 10, 20], samples: [69001] }, 1024);
  c = decode(build({ rig, clips: [long] }).bytes).clips[0];
  assert.deepEqual(c.marks.map((m) => m.sample), [0, 69001, 69999]);
  assert.equal(c.samplePose(10).pose[4], 69001 % 1024);
  assert.equal(c.samplePose(15).pose[4], 69500 % 1024);
});

// A clip of three segments (lengths 8, 8, 3) in pages, optionally in two tiers whose knots differ.
function pagedDesc({ tiers = false, looping = false } = {}) {
  const rig = { nodeCount: 1, scalarComponents: [1] };
  const segs = (seed) => [0, 1, 2].map((s) => ({ tracks: [
    { widths: [4, 4, 4], ranges: Array(3).fill([0, 255]), knots: codes(s < 2 ? 9 : 4, [4, 4, 4], seed + s) },
    { widths: [5], decimation: 1, ranges: [[0, 255]], knots: codes(s < 2 ? 5 : 3, [5], seed + 7 * s) },
  ] }));
  const clip = {
    flags: { looping, lastRepeatsFirst: looping }, sampleCount: looping ? 19 : 20, segmentLength: 8, sampleRate: 10,
    nodes: [{ kinds: [0, 3, 0] }], scalars: [{ kind: 3 }],
    ranges: [{ min: [0, 0, 0], extent: [15, 15, 15] }, { min: [0], extent: [31] }],
  };
  if (tiers) clip.tiers = [{ bound: 0.1, maxError: 0.05, segments: segs(1), pages: [1, 2] }, { bound: 0.01, maxError: 0.004, segments: segs(2), pages: [3] }];
  else Object.assign(clip, { segments: segs(1), pages: [2, 1] });
  return { paged: true, rig, clips: [clip, structuredClone(clip)] };
}

test('version 3: pages and tiers, decoded whole or as the resident part alone', () => {
  const desc = pagedDesc();
  const { bytes, layout } = build(desc);
  const blob = decode(bytes);
  assert.equal(blob.paged, true);
  for (const c of blob.clips) for (let k = 0; k < 20; ++k) {
    const s = Math.min(Math.floor(k / 8), 2), i = k - 8 * s;
    assertExact(c.samplePose(k / 10).pose.subarray(4, 7), desc.clips[0].segments[s].tracks[0].knots[i], `sample ${k}`);
  }
  // the resident part alone decodes; sampling needs the pages
  const resident = decode(bytes.subarray(0, layout.residentEnd));
  assert.equal(resident.pagesPresent, false);
  assert.throws(() => resident.clips[1].samplePose(0.5), (e) => e.code === 'Page_missing');

  const tiered = pagedDesc({ tiers: true, looping: true });
  const tb = build(tiered).bytes;
  for (const [tiersOption, tier] of [[1, 0], [2, 1], [0, 1]]) {
    const c = decode(tb, { tiers: tiersOption }).clips[1];
    assert.equal(c.sampleCount, 20); // Last_repeats_first: the source's 20 samples, 19 + the wrap sample
    for (let k = 0; k < 20; ++k) {
      const s = Math.min(Math.floor(k / 8), 2), i = k - 8 * s;
      assertExact(c.samplePose(k / 10).pose.subarray(4, 7), tiered.clips[1].tiers[tier].segments[s].tracks[0].knots[i], `tier ${tier} sample ${k}`);
    }
  }
});

// ---------------------------------------------------------------------------------------------
// Malformed blobs: each must be rejected with the error the spec implies.

const u16At = (bytes, o, v) => new DataView(bytes.buffer, bytes.byteOffset).setUint16(o, v, true);
const u32At = (bytes, o, v) => new DataView(bytes.buffer, bytes.byteOffset).setUint32(o, v, true);
const f32At = (bytes, o, v) => new DataView(bytes.buffer, bytes.byteOffset).setFloat32(o, v, true);
const f64At = (bytes, o, v) => new DataView(bytes.buffer, bytes.byteOffset).setFloat64(o, v, true);

// [name, code, make]: make returns the malformed bytes (from a description change or a byte patch).
const fromDesc = (change, base = baseDesc) => () => { const d = base(); change(d); return build(d).bytes; };
const patch = (change, base = baseDesc) => () => { const { bytes, layout } = build(base()); change(bytes, layout); return reseal(bytes, layout); };
const paged = (change) => patch(change, pagedDesc);
const tiered = (change) => patch(change, () => pagedDesc({ tiers: true }));
const rigOnly = (extra) => () => ({ restDefaults: false, rig: { nodeCount: 1, scalarComponents: [2], ...extra },
  clips: [{ flags: {}, sampleCount: 1, segmentLength: 8, sampleRate: 30, nodes: [{ kinds: [0, 0, 0] }], scalars: [{ kind: 0 }], ranges: [], segments: [{ tracks: [] }] }] });

const MALFORMED = [
  // blob header
  ['bad magic', 'Magic', patch((b) => { b[0] = 0x54; })],
  ['unknown version 4', 'Format_version', patch((b) => u16At(b, 4, 4))],
  ['reserved blob flag bit', 'Blob_flags', patch((b) => u16At(b, 6, 2 | 4))],
  ['Total_size not the blob size', 'Total_size', patch((b) => u32At(b, 8, b.length + 4))],
  ['Total_size not a multiple of 4', 'Total_size', () => { const { bytes } = build(baseDesc()); const b = new Uint8Array(bytes.length + 1); b.set(bytes); u32At(b, 8, b.length); return b; }],
  ['checksum', 'Checksum', () => { const { bytes, layout } = build(baseDesc()); bytes[layout.rig + 9] ^= 1; return bytes; }],
  ['Clip_count 0', 'Clip_count', patch((b) => u32At(b, 16, 0))],
  ['a clip offset off its place', 'Clip_offset', patch((b) => u32At(b, 24, u32(b, 24) + 4), twoClips)],
  ['a blob longer than its resident part', 'Total_size', fromDesc((d) => { d.extraTail = 4; })],
  ['Resident_size not a multiple of 4', 'Resident_size', paged((b) => u32At(b, 20, u32(b, 20) + 2))],
  ['Resident_size past Total_size', 'Resident_size', paged((b) => u32At(b, 20, b.length))],
  ['a paged clip in a blob that is not paged', 'Paged', patch((b, l) => u32At(b, l.clips[0].start + 4, u32(b, l.clips[0].start + 4) | 32))],
  ['a clip that is not paged in a paged blob', 'Paged', paged((b, l) => u32At(b, l.clips[0].start + 4, u32(b, l.clips[0].start + 4) & ~32))],
  // rig
  ['a rig without nodes or scalars', 'Node_count', patch((b, l) => { u16At(b, l.rig, 0); u16At(b, l.rig + 2, 0); }, rigOnly())],
  ['reserved rig flag bit', 'Rig_flags', fromDesc((d) => { d.rig.extraFlags = 256; })],
  ['reserved rig field', 'Rig', fromDesc((d) => { d.rig.reserved = 1; })],
  ['Unit_scale 0', 'Unit_scale', fromDesc((d) => { d.rig.unitScale = 0; })],
  ['Unit_scale infinite', 'Unit_scale', patch((b, l) => f64At(b, l.rig + 8, Infinity))],
  ['reserved Scalar_components bits', 'Scalar_components', patch((b, l) => { b[l.rig + 16] |= 4; })],
  ['non-zero padding after Scalar_components', 'Scalar_components', patch((b, l) => { b[l.rig + 18] = 1; })],
  ['a parent after its child', 'Parents', fromDesc((d) => { d.rig.parents = [-1, 2, 1, 0]; })],
  ['a node its own parent', 'Parents', fromDesc((d) => { d.rig.parents = [0, 0, 1, 0]; })],
  ['non-zero Parents padding', 'Parents', patch((b, l) => { b[l.parts.Parents + 2] = 1; }, rigOnly({ parents: [-1] }))],
  ['a rest rotation that is not unit', 'Rest', fromDesc((d) => { d.rig.rest.pose[3] = 0.99; })],
  ['a non-finite rest value', 'Rest', fromDesc((d) => { d.rig.rest.scalars[4] = NaN; })],
  ['a non-finite shell', 'Shells', fromDesc((d) => { d.rig.shells.nodes[2][0] = Infinity; })],
  ['Scalar_sources runs short of the tracks', 'Scalar_sources', fromDesc((d) => { d.rig.scalarSources.pop(); })],
  ['Scalar_sources runs past the tracks', 'Scalar_sources', fromDesc((d) => { d.rig.scalarSources[1].count = 2; })],
  ['a Scalar_sources run of 0 tracks', 'Scalar_sources', fromDesc((d) => { d.rig.scalarSources.push({ count: 0, node: 1, target: 0 }); })],
  ['reserved field of Scalar_sources', 'Scalar_sources', patch((b, l) => u16At(b, l.parts.Scalar_sources + 2, 1))],
  ['a name offset past the strings', 'Names', patch((b, l) => u32At(b, l.parts.Names + 4, 1000))],
  ['a name whose NUL is not inside the strings', 'Names', patch((b, l) => { const size = u32(b, l.parts.Names); b[l.parts.Names + 4 + 4 * 7 + size - 1] = 0x41; })],
  ['Names past the resident part', 'Names', patch((b, l) => u32At(b, l.parts.Names, 4000))],
  ['a non-finite Scalar_rest value', 'Scalar_rest', fromDesc((d) => { d.rig.scalarRest = [0, 0, -Infinity, 0, 0]; })],
  // clip header
  ['reserved clip flag bit', 'Flags', fromDesc((d) => { d.clips[0].flags.extra = 1 << 17; })],
  ['Curves with segments', 'Curves', fromDesc((d) => { d.clips[0].flags.extra = 1 << 16; })],
  ['Last_repeats_first without Looping', 'Last_repeats_first', fromDesc((d) => { d.clips[0].flags.lastRepeatsFirst = true; })],
  ['Time_map with Looping', 'Time_map', fromDesc((d) => { const c = d.clips[0]; c.flags.looping = true; c.sampleCount = 8; c.timeMap = { times: [0, 1], samples: [] }; })],
  ['Tiered without Paged', 'Tiered', fromDesc((d) => { d.clips[0].flags.extra = 128; })],
  ['Sample_count 0', 'Sample_count', patch((b, l) => u32At(b, l.clips[0].start + 8, 0))],
  ['Sample_count 2^32 - 1', 'Sample_count', patch((b, l) => u32At(b, l.clips[0].start + 8, 2 ** 32 - 1))],
  ['Segment_length 0', 'Segment_length', patch((b, l) => u16At(b, l.clips[0].start + 12, 0))],
  ['Segment_length 1025', 'Segment_length', patch((b, l) => u16At(b, l.clips[0].start + 12, 1025))],
  ['reserved clip header field', 'Clip_header', fromDesc((d) => { d.clips[0].reserved = 1; })],
  ['Sample_rate 0', 'Sample_rate', fromDesc((d) => { d.clips[0].sampleRate = 0; })],
  ['Sample_rate NaN (Rate_f64)', 'Sample_rate', fromDesc((d) => { d.clips[0].flags.rateF64 = true; d.clips[0].sampleRate = NaN; })],
  ['Clip_size past the resident part', 'Clip_size', patch((b, l) => u32At(b, l.clips[0].start, b.length))],
  ['Clip_size below its header', 'Clip_size', patch((b, l) => u32At(b, l.clips[0].start, 16))],
  // maps, descriptors, constants, ranges
  ['a node map bit past the last node', 'Node_map', patch((b, l) => { b[l.clips[0].nodeMap] |= 16; })],
  ['a scalar map bit past the last scalar track', 'Scalar_map', patch((b, l) => { b[l.clips[0].scalarMap] |= 4; })],
  ['reserved scalar descriptor bits', 'Descriptor', fromDesc((d) => { d.clips[0].scalars[1].reserved = 1; })],
  ['Constant_dropped of an animated rotation', 'Constant_dropped', fromDesc((d) => { d.clips[0].nodes[0].dropped = 2; })],
  ['Constant_dropped of a rest-default rotation', 'Constant_dropped', fromDesc((d) => { d.clips[0].nodes[3].dropped = 1; })],
  ['a rounding byte of 4', 'Rounding', fromDesc((d) => { d.clips[0].flags.trackRounding = true; d.clips[0].nodes[2].rounding = 4; })],
  ['non-zero descriptor padding', 'Padding', patch((b, l) => { b[l.clips[0].constants - 1] = 1; })],
  ['a non-finite constant', 'Constants', fromDesc((d) => { d.clips[0].nodes[2].constants[2][1] = NaN; })],
  ['a non-finite short constant', 'Constants', fromDesc((d) => { d.clips[0].flags.shortConstants = true; d.clips[0].nodes[2].constants[2][1] = -Infinity; })],
  ['non-zero constants padding', 'Padding', patch((b, l) => { b[l.clips[0].ranges - 1] = 1; }, () => { const d = baseDesc(); d.clips[0].flags.shortConstants = true; return d; })],
  ['a non-finite clip range', 'Clip_ranges', fromDesc((d) => { d.clips[0].ranges[2].extent[1] = Infinity; })],
  ['a half range with every exponent bit set', 'Clip_ranges', patch((b, l) => u16At(b, l.clips[0].ranges + 2, 0x7f80), () => { const d = baseDesc(); d.clips[0].flags.halfRanges = true; return d; })],
  // time map
  ['Mark_count 1', 'Mark_count', fromDesc((d) => { d.clips[0].timeMap = { times: [0], samples: [], markCount: 1 }; })],
  ['Mark_count past Stored_count', 'Mark_count', fromDesc((d) => { d.clips[0].timeMap = { times: [0, 1], samples: [], markCount: 10 }; })],
  ['mark samples out of order', 'Time_map', fromDesc((d) => { d.clips[0].timeMap = { times: [0, 0.1, 0.2, 0.3], samples: [5, 3] }; })],
  ['a mark sample at the last sample', 'Time_map', fromDesc((d) => { d.clips[0].timeMap = { times: [0, 0.1, 0.3], samples: [8] }; })],
  ['mark times out of order', 'Time_map', fromDesc((d) => { d.clips[0].timeMap = { times: [0, 0.2, 0.1], samples: [4] }; })],
  ['a negative mark time', 'Time_map', fromDesc((d) => { d.clips[0].timeMap = { times: [-0.5, 0.2, 0.3], samples: [4] }; })],
  ['non-zero time map padding', 'Padding', patch((b, l) => { b[l.clips[0].segments - 1] = 1; }, () => { const d = baseDesc(); d.clips[0].timeMap = { times: [0, 0.2, 0.3], samples: [4] }; return d; })],
  // segments
  ['a segment one byte longer', 'Segment', fromDesc((d) => { d.clips[0].segments[0].extra = [0]; })],
  ['reserved track descriptor bits', 'Track_descriptor', fromDesc((d) => { d.clips[0].segments[0].tracks[1].reserved = 1; })],
  ['width code 25', 'Track_descriptor', fromDesc((d) => { d.clips[0].segments[0].tracks[2].widths = [3, 25, 3]; })],
  ['a width for a component the track lacks', 'Track_descriptor', fromDesc((d) => { d.clips[0].segments[0].tracks[1].widths = [4, 0, 8, 1]; })],
  ['a rotation raw in some components only', 'Track_descriptor', fromDesc((d) => { d.clips[0].segments[0].tracks[0].widths = [31, 31, 5]; })],
  ['Dropped 4', 'Dropped', fromDesc((d) => { d.clips[0].segments[0].tracks[0].dropped = 4; })],
  ['a raw rotation with Dropped', 'Dropped', patch((b, l) => setDescriptor(b, l.clips[0].segments, 31 | (31 << 5) | (31 << 10) | (1 << 15)))],
  // midpoint descriptors are 5 bytes: track i's shifts at segment + 5 i + 3 (Shift_k in bits 4k of that u16)
  ['a shift above its width', 'Shift', patch((b, l) => { b[l.clips[0].segments + 13] = 0x04; }, () => baseDesc({ midpoint: true }))],
  ['a shift on a rotation\'s slot 3', 'Shift', patch((b, l) => { b[l.clips[0].segments + 4] = 0x10; }, () => baseDesc({ midpoint: true }))],
  ['a shift on a translation\'s missing slot', 'Shift', patch((b, l) => { b[l.clips[0].segments + 9] = 0x10; }, () => baseDesc({ midpoint: true }))],
  ['a shift in a track with a raw slot', 'Shift', patch((b, l) => { b[l.clips[0].segments + 8] = 0x01; }, () => { const d = baseDesc({ midpoint: true }); d.clips[0].segments[0].tracks[1].widths = [4, 31, 8]; d.clips[0].segments[0].tracks[1].knots = codes(5, [4, 32, 8], 2); return d; })],
  ['a shift on a raw slot', 'Shift', patch((b, l) => { b[l.clips[0].segments + 8] = 0x10; }, () => { const d = baseDesc({ midpoint: true }); d.clips[0].segments[0].tracks[1].widths = [4, 31, 8]; d.clips[0].segments[0].tracks[1].knots = codes(5, [4, 32, 8], 2); return d; })],
  // segment table (several segments)
  ['segment table entry 0', 'Segment_table', patch((b, l) => u32At(b, l.clips[0].segments, u32(b, l.clips[0].segments) + 4), multiSegment)],
  ['segment table past Clip_size', 'Segment_table', patch((b, l) => u32At(b, l.clips[0].segments + 8, u32(b, l.clips[0].segments + 8) + 1), multiSegment)],
  ['segment table short of Clip_size', 'Clip_size', fromDesc((d) => { d.clips[0].trailing = [0, 0, 0, 0]; }, multiSegment)],
  // pages and tiers
  ['Page_count 0', 'Page_count', paged((b, l) => u32At(b, l.clips[0].pageTable - 4, 0))],
  ['a page\'s First_segment', 'First_segment', paged((b, l) => u32At(b, l.clips[0].pageTable + 20, 1))],
  ['a page\'s Segment_count past the clip', 'Segment_count', paged((b, l) => u32At(b, l.clips[0].pageTable + 24, 2))],
  ['a page\'s Offset', 'Offset', paged((b, l) => u32At(b, l.clips[1].pageTable + 8, u32(b, l.clips[1].pageTable + 8) + 4))],
  ['a page Size not a multiple of 4', 'Size', paged((b, l) => u32At(b, l.clips[1].pageTable + 32, u32(b, l.clips[1].pageTable + 32) - 2))],
  ['pages short of Total_size', 'Total_size', paged((b) => u32At(b, 8, b.length - 4))],
  ['a page checksum', 'Checksum', () => { const { bytes, layout } = build(pagedDesc()); bytes[layout.clips[1].pages[0].at + 9] ^= 1; return bytes; }],
  ['a page\'s segment offsets', 'Segment_offset', paged((b, l) => u32At(b, l.clips[0].pages[0].at, 8))],
  ['a page tail that is not zero', 'Tail', paged((b, l) => { const p = l.clips[0].pages[1]; b[p.at + p.size - 1] = 1; })],
  ['Tier_count 1', 'Tier_count', tiered((b, l) => u32At(b, l.clips[0].tierTable, 1))],
  ['Tier_count 9', 'Tier_count', tiered((b, l) => u32At(b, l.clips[0].tierTable, 9))],
  ['a tier First_page not increasing', 'First_page', tiered((b, l) => u32At(b, l.clips[0].tierTable + 16, 0))],
  ['a negative tier Bound', 'Bound', tiered((b, l) => f32At(b, l.clips[0].tierTable + 8, -1))],
  ['a tier without every segment', 'Segment_count', tiered((b, l) => u32At(b, l.clips[0].tierTable + 16, 1))],
  ['tiers of a lone segment dropping different rotation components', 'Dropped', fromDesc((d) => { d.clips[0].tiers[1].segments[0].tracks[0].dropped = 1; }, loneTiers)],
];

function u32(bytes, o) { return new DataView(bytes.buffer, bytes.byteOffset).getUint32(o, true); }

function setDescriptor(bytes, at, D) {
  bytes[at] = D & 255; bytes[at + 1] = (D >> 8) & 255; bytes[at + 2] = (D >> 16) & 255;
}

function twoClips() {
  const d = baseDesc();
  d.clips.push(baseClip());
  d.rig.names.clips.push('run');
  return d;
}

// One segment in two tiers, with a rotation track (its lone-segment range: 3 components).
function loneTiers() {
  const rig = { nodeCount: 1, scalarComponents: [] };
  const seg = (seed) => ({ tracks: [{ widths: [5, 5, 5], dropped: 3, knots: codes(5, [5, 5, 5], seed) }] });
  const clip = { flags: {}, sampleCount: 5, segmentLength: 8, sampleRate: 10, nodes: [{ kinds: [3, 0, 0] }], scalars: [],
                 ranges: [{ min: [-0.5, -0.5, -0.5], extent: [STEP5, STEP5, STEP5] }],
                 tiers: [{ segments: [seg(1)], pages: [1] }, { segments: [seg(2)], pages: [1] }] };
  return { paged: true, rig, clips: [clip] };
}

function multiSegment() {
  const d = baseDesc();
  const c = d.clips[0];
  c.sampleCount = 17;
  const seg = c.segments[0];
  seg.tracks.forEach((st) => { st.ranges = Array(st.widths.length === 4 ? 4 : 3).fill([0, 255]); });
  c.ranges[0] = { min: [-0.5, -0.5, -0.5, -0.5], extent: [STEP5, STEP5, STEP5, STEP5] };
  c.segments = [seg, structuredClone(seg)];
  return d;
}

for (const [name, code, make] of MALFORMED) {
  test(`version 3 malformed: ${name} -> ${code}`, () => {
    const bytes = make();
    assert.throws(() => decode(bytes), (e) => {
      assert.ok(e instanceof SinewDecodeError, `${e}`);
      assert.equal(e.code, code, e.message);
      return true;
    });
  });
}

test('the valid bases of the malformed cases decode', () => {
  for (const d of [baseDesc(), baseDesc({ midpoint: true }), pagedDesc(), pagedDesc({ tiers: true }), multiSegment(), rigOnly()(), loneTiers()]) decode(build(d).bytes).clips.forEach((c) => c.samplePose(0.3));
});

// Hostile input: every truncation and every single-byte change (checksums resealed, so the structure
// checks are reached) gives a named error or a blob that samples; never another exception.
test('version 3: truncated and changed blobs fail with named errors only', () => {
  for (const desc of [baseDesc({ midpoint: true }), pagedDesc({ tiers: true })]) {
    const { bytes, layout } = build(desc);
    const named = (fn) => {
      try { fn(); } catch (e) { if (!(e instanceof SinewDecodeError)) throw e; }
    };
    for (let n = 0; n < bytes.length; ++n) {
      if (n === layout.residentEnd && desc.paged) decode(bytes.subarray(0, n)); // the resident part alone
      else assert.throws(() => decode(bytes.subarray(0, n)), SinewDecodeError, `truncated to ${n}`);
    }
    for (let i = 0; i < bytes.length; ++i) {
      if (i >= 12 && i < 16) continue; // the checksum itself
      for (const x of [1, 0x80, 0xff]) {
        const b = bytes.slice();
        b[i] ^= x;
        reseal(b, layout);
        named(() => { for (const c of decode(b).clips) for (const t of [0, 0.35, 1.9, 100]) c.samplePose(t); });
      }
    }
  }
});
