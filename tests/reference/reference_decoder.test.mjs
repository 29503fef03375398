// sinew — the reference decoder of docs/format.md (written from the document) must agree bit for
// bit with the C library: on the golden v1 blobs, and (when SINEW_CLI names the built CLI) on the
// bundled clips compressed now (plain and paged), at fractional times, for every clip.
// Run: SINEW_CLI=build/sinew node --test tests/reference/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decode, SinewDecodeError, xxh32 } from '../../docs/reference_decoder.mjs';
import { curvesGltf } from './curves_gltf.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('golden v1 blob decodes to the golden poses', () => {
  const blob = decode(readFileSync(join(root, 'tests/golden/v1_small.sinew')));
  const expected = new Float32Array(readFileSync(join(root, 'tests/golden/v1_small.poses')).buffer.slice(0));
  const clip = blob.clips[0];
  assert.equal(clip.jointCount, 5);
  for (let s = 0; s < clip.sampleCount; ++s) {
    const { pose, scalars } = clip.samplePose(s / clip.sampleRate);
    for (let i = 0; i < 50; ++i) assert.equal(Object.is(pose[i], expected[s * 50 + i]), true, `sample ${s} value ${i}`);
    assert.equal(Object.is(scalars[0], expected[2000 + s]), true, `scalar at sample ${s}`);
  }
});

test('reference decoder rejects a corrupted blob', () => {
  const bytes = new Uint8Array(readFileSync(join(root, 'tests/golden/v1_small.sinew')));
  bytes[100] ^= 1;
  assert.throws(() => decode(bytes), /checksum/);
  assert.throws(() => decode(bytes.subarray(0, 40)), /Total_size|shorter/);
});

// Hostile input: truncations and changed bytes (checksum recomputed, so the structure checks are reached)
// give a named error or a blob that samples; never another exception.
test('changed golden v1 bytes fail with named errors only', () => {
  const bytes = new Uint8Array(readFileSync(join(root, 'tests/golden/v1_small.sinew')));
  for (let n = 0; n < bytes.length; n += 7) assert.throws(() => decode(bytes.subarray(0, n)), SinewDecodeError);
  let named = 0;
  for (let i = 16; i < bytes.length; ++i) {
    const b = bytes.slice();
    b[i] ^= 1 << (i % 8);
    new DataView(b.buffer).setUint32(12, xxh32(b, 16, b.length), true);
    try {
      for (const c of decode(b).clips) for (const t of [0, 0.37, 5]) c.samplePose(t);
    } catch (e) {
      if (!(e instanceof SinewDecodeError)) throw e;
      named++;
    }
  }
  assert.ok(named > 100, `${named} changes rejected`);
});

const cli = process.env.SINEW_CLI;
// the format version the CLI writes ("format versions read 1..N, written N"): the bundled clips are checked in it
const written = cli && Number(/written (\d+)/.exec(execFileSync(join(root, cli), ['--version'], { encoding: 'utf8' }))[1]);

// Samples every clip of a blob file at fractional times through the reference decoder and through
// `sinew sample`, which must agree bit for bit; returns how many poses were compared.
function compareWithCli(file, label, tier) {
  const blob = decode(readFileSync(file), { tiers: tier === undefined ? 0 : tier + 1 });
  const tierArgs = tier === undefined ? [] : ['--tier', String(tier)];
  // what the CLI reads from the blob's header, metadata or rig: the same clips, names and counts
  const info = JSON.parse(execFileSync(join(root, cli), ['info', file, '--json']));
  assert.equal(info.clips.length, blob.clips.length, `${label}: clips`);
  info.clips.forEach((ci, c) => {
    const clip = blob.clips[c];
    assert.deepEqual([clip.name, clip.jointCount, clip.scalarCount, clip.sampleCount, clip.segmentCount],
                     [ci.name, ci.joints, ci.scalar_tracks, ci.samples, ci.segments], `${label} clip ${c}: name and counts`);
  });
  let compared = 0;
  blob.clips.forEach((clip, c) => {
    const times = [];
    for (let i = 0; i < 12; ++i) times.push(-0.1 + (clip.duration + 0.2) * i / 11 + 0.0123);
    // a clip with a time map (§Time map): its marks and the times a third of the way past them
    for (let m = 0; m < Math.min(clip.marks.length, 8); ++m) {
      times.push(clip.marks[m].time);
      if (m + 1 < clip.marks.length) times.push(clip.marks[m].time + (clip.marks[m + 1].time - clip.marks[m].time) / 3);
    }
    for (const t of times) {
      const json = JSON.parse(execFileSync(join(root, cli), ['sample', file, '--time', String(t), '--clip', String(c), '--json', ...tierArgs]));
      const { pose } = clip.samplePose(t);
      json.joints.forEach((j, k) => {
        const got = [...j.rotation, ...j.translation, ...j.scale];
        for (let i = 0; i < 10; ++i) assert.equal(Math.fround(got[i]), pose[k * 10 + i], `${label} clip ${c} t=${t} joint ${k} field ${i}`);
      });
      compared++;
    }
  });
  return compared;
}

test('reference decoder matches the C library on the golden version-3 blobs', { skip: !cli && 'SINEW_CLI not set' }, () => {
  let compared = 0;
  for (const name of ['v3_platformer.sinew', 'v3_midpoint_cmu.sinew', 'v3_curves_interpolation.sinew', 'v3_curves_synthetic.sinew'])
    compared += compareWithCli(join(root, 'tests/golden', name), name);
  assert.ok(compared >= 9 * 12);
});

test('reference decoder matches the C library on the golden version-2 blobs', { skip: !cli && 'SINEW_CLI not set' }, () => {
  let compared = 0;
  for (const name of ['v2_platformer.sinew', 'v2_midpoint_cmu.sinew'])
    compared += compareWithCli(join(root, 'tests/golden', name), name);
  assert.ok(compared >= 9 * 12);
});

test('reference decoder matches the C library on the bundled clips (the format the CLI writes, plain and paged)', { skip: !cli && 'SINEW_CLI not set' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'sinew-ref-'));
  const inputs = [['data/acl_09_02.acl.sjson', []], ['data/acl_09_02.acl.sjson', ['--plain-knots']],
                  ['data/godot_platformer_player.glb', []],
                  ['data/cmu_01_01.bvh', ['--unit-cm', '5.644', '--error-cm', '0.1', '--plain-knots']],
                  ['data/cmu_01_01.bvh', ['--unit-cm', '5.644', '--error-cm', '0.1']],
                  ['data/cmu_01_01.bvh', ['--unit-cm', '5.644', '--error-cm', '0.1', '--page-bytes', '4096']],
                  ['data/godot_platformer_player.glb', ['--page-bytes', '1024', '--plain-knots']]];
  let compared = 0;
  for (const [input, extra] of inputs) {
    const out = join(dir, 'clip.sinew');
    execFileSync(join(root, cli), ['compress', join(root, input), '-o', out, '-q', ...extra]);
    const blob = decode(readFileSync(out));
    assert.equal(blob.version, written);
    assert.equal(blob.paged, extra.includes('--page-bytes'), `${input}: paged`);
    // by default 120 Hz mocap takes Midpoint_knots (clip flag bit 10): keep predicted knots covered; --plain-knots never
    const clipFlags = blob.clips[0].flags, midpoint = (clipFlags & 1024) !== 0;
    // the encoder writes Slerp_fit (bit 13) on every clip: the fitted parameter is what the comparison covers
    assert.ok(clipFlags & 8192, `${input}: Slerp_fit`);
    if (input.endsWith('.bvh')) assert.equal(midpoint, !extra.includes('--plain-knots'), `${input}: Midpoint_knots`);
    if (extra.includes('--plain-knots')) assert.ok(!midpoint, `${input}: plain knots`);
    compared += compareWithCli(out, `${input} ${extra.join(' ')}`);
  }
  assert.ok(compared >= 150);
});

// §Curves: glTF curves kept as curves (CUBICSPLINE values and tangents, LINEAR rotations through nlerp, STEP keys,
// morph weights), in a synthetic file of seeded random curves and in the corpus's CUBICSPLINE files when present.
test('reference decoder matches the C library on curve clips', { skip: !cli && 'SINEW_CLI not set' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'sinew-ref-'));
  const corpus = join(root, '..', 'shared', 'corpus', 'gltf');
  const sources = [];
  for (const seed of [7, 11, 23]) {
    const file = join(dir, `curves${seed}.gltf`);
    writeFileSync(file, JSON.stringify(curvesGltf({ seed })));
    sources.push(file);
  }
  for (const file of ['blender_io/07_nla-anim/07_nla-anim.gltf', 'blender_io/03_all_animations/03_all_animations.gltf',
                      'khronos/InterpolationTest/interpolation_test.gltf'])
    if (existsSync(join(corpus, file))) sources.push(join(corpus, file));
  let compared = 0, curveClips = 0;
  for (const source of sources)
    for (const extra of [[], ['--strip'], ['--error-cm', '0.1']]) {
      const out = join(dir, 'curves.sinew');
      execFileSync(join(root, cli), ['compress', source, '-o', out, '-q', ...extra]);
      const blob = decode(readFileSync(out));
      curveClips += blob.clips.filter((clip) => clip.flags & 0x10000).length;
      compared += compareWithCli(out, `${source} ${extra.join(' ')}`);
    }
  assert.ok(curveClips >= 12, `${curveClips} curve clips`);
  assert.ok(compared >= 200);
});

test('reference decoder matches the C library on a clip with a time map (keys off a uniform grid)', { skip: !cli && 'SINEW_CLI not set' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'sinew-ref-'));
  const glb = join(dir, 'cmu.glb'), offgrid = join(dir, 'offgrid.glb'), out = join(dir, 'offgrid.sinew');
  execFileSync(join(root, cli), ['convert', join(root, 'data/cmu_01_01.bvh'), '-o', glb, '-q', '--unit-cm', '5.644']);
  // 2 s keyed at 37.5 Hz, times rounded to milliseconds (an exporter's): marks where the spacing changes
  execFileSync(process.execPath, [join(root, 'bench/make_offgrid_gltf.mjs'), glb, offgrid, '--seconds', '2', '--times', 'ms']);
  execFileSync(join(root, cli), ['compress', offgrid, '-o', out, '-q', '--error-cm', '0.1']);
  const clip = decode(readFileSync(out)).clips[0];
  assert.ok((clip.flags & 2048) !== 0, 'Time_map');
  assert.ok(clip.marks.length >= 3, `${clip.marks.length} marks`);
  assert.ok(compareWithCli(out, 'time map') >= 20);
});

test('reference decoder matches the C library on the golden version-1 blobs', { skip: !cli && 'SINEW_CLI not set' }, () => {
  let compared = 0;
  for (const name of ['v1_small.sinew', 'v1_acl_09_02.sinew', 'v1_platformer.sinew']) {
    const file = join(root, 'tests/golden', name);
    assert.equal(readFileSync(file).readUInt16LE(4), 1);
    compared += compareWithCli(file, name);
  }
  assert.ok(compared >= 100);
});

test('reference decoder plays each quality tier like the C library', { skip: !cli && 'SINEW_CLI not set' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'sinew-ref-'));
  const out = join(dir, 'tiers.sinew');
  execFileSync(join(root, cli), ['compress', join(root, 'data/godot_platformer_player.glb'), '-o', out, '-q', '--tiers', '0.2,0.05,0.01']);
  let compared = 0;
  for (const tier of [0, 1, 2]) compared += compareWithCli(out, `tier ${tier}`, tier);
  assert.ok(compared >= 200);
  // the tiers differ: the base tier is not the finest
  const coarse = decode(readFileSync(out), { tiers: 1 }).clips[1].samplePose(0.3).pose;
  const fine = decode(readFileSync(out)).clips[1].samplePose(0.3).pose;
  assert.ok(coarse.some((v, i) => v !== fine[i]));
});

test('reference decoder rejects a paged blob with a changed page byte', { skip: !cli && 'SINEW_CLI not set' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'sinew-ref-'));
  const out = join(dir, 'paged.sinew');
  execFileSync(join(root, cli), ['compress', join(root, 'data/cmu_01_01.bvh'), '-o', out, '-q', '--page-bytes', '8192',
                                 '--error-cm', '0.1']);
  const bytes = new Uint8Array(readFileSync(out));
  const resident = decode(bytes).residentSize;
  bytes[resident + 100] ^= 4;
  assert.throws(() => decode(bytes), /page 0 checksum/);
});
