// sinew — a small glTF whose animations keep curves that linear samples play badly: CUBICSPLINE translations,
// rotations, scales and morph weights with non-zero tangents, LINEAR rotations over large angles, STEP keys, keys
// off any grid, and channels of one animation sharing (or not) their key times. Deterministic (seeded), so a
// test that fails can be run again on the same file.
//   import { curvesGltf } from './curves_gltf.mjs';
//   writeFileSync('curves.gltf', JSON.stringify(curvesGltf({ seed: 7 })));

// A 32-bit xorshift: the same numbers on every platform.
function random(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13, x >>>= 0, x ^= x >>> 17, x ^= x << 5, x >>>= 0;
    return x / 4294967296;
  };
}

export function curvesGltf({ seed = 1, keys = 5 } = {}) {
  const rnd = random(seed), range = (lo, hi) => lo + (hi - lo) * rnd();
  const floats = [];
  const accessors = [];
  // an accessor of `count` elements of `type` (components per element) appended to the one buffer
  const accessor = (values, type, count, extra = {}) => {
    const offset = floats.length * 4;
    floats.push(...values.map(Math.fround));
    accessors.push({ bufferView: 0, byteOffset: offset, componentType: 5126, count, type, ...extra });
    return accessors.length - 1;
  };
  const times = (n, start = 0) => { // increasing, off any grid
    const t = [start];
    for (let k = 1; k < n; ++k) t.push(t[k - 1] + range(0.15, 0.6));
    return t;
  };
  const timeAccessor = (t) => accessor(t, 'SCALAR', t.length, { min: [Math.fround(t[0])], max: [Math.fround(t[t.length - 1])] });
  const unit = (q) => { const l = Math.hypot(...q); return q.map((v) => v / l); };
  const quat = (angle, axis) => unit([...axis.map((a) => a * Math.sin(angle / 2)), Math.cos(angle / 2)]);
  // CUBICSPLINE output: in-tangent, value, out-tangent per key
  const cubic = (n, value, tangent) => { const v = []; for (let k = 0; k < n; ++k) v.push(...tangent(), ...value(k), ...tangent()); return v; };

  // a mesh with two morph targets (a triangle), so weights channels have targets to drive
  const position = accessor([0, 0, 0, 1, 0, 0, 0, 1, 0], 'VEC3', 3, { min: [0, 0, 0], max: [1, 1, 0] });
  // (small displacements: a weight's default precision, 1e-4, moves them by less than the 0.01 cm bound)
  const target0 = accessor([0, 0, 0.02, 0, 0, 0, 0, 0, 0], 'VEC3', 3, { min: [0, 0, 0], max: [0, 0, 0.02] });
  const target1 = accessor([0, 0, 0, 0, 0.03, 0, 0, 0, 0], 'VEC3', 3, { min: [0, 0, 0], max: [0, 0.03, 0] });
  const nodes = [
    { name: 'root', children: [1, 4], translation: [0, 1, 0] },
    { name: 'arm', children: [2], translation: [0.5, 0, 0] },
    { name: 'forearm', children: [3], translation: [0.4, 0, 0] },
    { name: 'hand', translation: [0.3, 0, 0] },
    { name: 'face', mesh: 0, translation: [0, 0.5, 0] },
  ];
  const animations = [];
  const channel = (samplers, channels, node, path, interpolation, input, output) => {
    samplers.push({ input, output, interpolation });
    channels.push({ sampler: samplers.length - 1, target: { node, path } });
  };
  { // cubic translation, rotation and scale on a chain, sharing one key time list; cubic weights on their own times
    const samplers = [], channels = [], t = times(keys), input = timeAccessor(t);
    const axis = unit([range(-1, 1), range(-1, 1), range(-1, 1)]);
    channel(samplers, channels, 1, 'translation', 'CUBICSPLINE', input,
      accessor(cubic(keys, () => [range(-0.5, 0.5), range(-0.2, 0.2), range(-0.3, 0.3)], () => [range(-2, 2), range(-1, 1), range(-1, 1)]), 'VEC3', 3 * keys));
    channel(samplers, channels, 2, 'rotation', 'CUBICSPLINE', input,
      accessor(cubic(keys, (k) => quat(0.3 * k + range(0, 0.4), axis), () => [range(-0.3, 0.3), range(-0.3, 0.3), range(-0.3, 0.3), range(-0.3, 0.3)]), 'VEC4', 3 * keys));
    channel(samplers, channels, 3, 'scale', 'CUBICSPLINE', input,
      accessor(cubic(keys, () => [range(0.8, 1.2), range(0.8, 1.2), range(0.8, 1.2)], () => [range(-0.5, 0.5), range(-0.5, 0.5), range(-0.5, 0.5)]), 'VEC3', 3 * keys));
    const tw = times(keys + 1, 0.1);
    channel(samplers, channels, 4, 'weights', 'CUBICSPLINE', timeAccessor(tw),
      accessor(cubic(keys + 1, () => [range(0, 1), range(0, 1)], () => [range(-1, 1), range(-1, 1)]), 'SCALAR', 3 * (keys + 1) * 2));
    animations.push({ name: 'cubic', samplers, channels });
  }
  { // linear rotations over large angles (slerp), a linear translation and step keys
    const samplers = [], channels = [], t = times(3), axis = [0, 0, 1];
    channel(samplers, channels, 1, 'rotation', 'LINEAR', timeAccessor(t), accessor([...quat(0, axis), ...quat(1.4, axis), ...quat(2.6, axis)], 'VEC4', 3));
    channel(samplers, channels, 2, 'translation', 'LINEAR', timeAccessor(t), accessor([0.4, 0, 0, 0.6, 0.1, 0, 0.4, 0, 0.2], 'VEC3', 3));
    const ts = times(4);
    channel(samplers, channels, 3, 'scale', 'STEP', timeAccessor(ts), accessor([1, 1, 1, 0.5, 0.5, 0.5, 1.5, 1, 1, 1, 1, 1], 'VEC3', 4));
    animations.push({ name: 'linear and step', samplers, channels });
  }
  { // a cubic rotation mixed with a step translation in one clip (a curve clip holds both)
    const samplers = [], channels = [], t = times(keys), axis = unit([0.2, 1, 0.1]);
    channel(samplers, channels, 2, 'rotation', 'CUBICSPLINE', timeAccessor(t),
      accessor(cubic(keys, (k) => quat(-0.2 * k, axis), () => [range(-0.4, 0.4), range(-0.4, 0.4), range(-0.4, 0.4), range(-0.4, 0.4)]), 'VEC4', 3 * keys));
    const ts = times(3);
    channel(samplers, channels, 3, 'translation', 'STEP', timeAccessor(ts), accessor([0.3, 0, 0, 0.35, 0.05, 0, 0.3, 0, 0], 'VEC3', 3));
    animations.push({ name: 'cubic and step', samplers, channels });
  }
  const bytes = new Uint8Array(new Float32Array(floats).buffer);
  return {
    asset: { version: '2.0', generator: 'sinew tests/reference/curves_gltf.mjs' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes,
    meshes: [{ primitives: [{ attributes: { POSITION: position }, targets: [{ POSITION: target0 }, { POSITION: target1 }] }], weights: [0, 0] }],
    animations,
    accessors,
    bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: bytes.length }],
    buffers: [{ byteLength: bytes.length, uri: `data:application/octet-stream;base64,${Buffer.from(bytes).toString('base64')}` }],
  };
}
