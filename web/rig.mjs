// sinew — see include/sinew.h for version and licence
// A format-3 blob's rig (docs/format.md §rig) and its clips' listings, read once at load into typed arrays
// and offsets: names stay in the blob's bytes (the copy in the wasm heap once loaded) and are decoded when
// asked for, so a loaded blob keeps on the JS heap a few small objects, not one per node (issue 34 item 3).
// `joints()` / `scalars()` build the per-node objects of readMetadata's shape on first use (one array for
// every clip: the rig is shared), for code that wants them.
import { SinewError } from './sinew.mjs'; // (a cycle: used only after both modules are evaluated)

const align4 = (x) => (x + 3) & ~3;
const FLAG_TIME_MAP = 2048, FLAG_SLERP_FIT = 8192, FLAG_LISTS_NODES = 0x4000, FLAG_LISTS_SCALARS = 0x8000, FLAG_CURVES = 0x10000;

export class SinewRig {
	// Parses and checks the rig of `data` (the blob's bytes: a Uint8Array) and where each clip's listings and
	// time map are. A packed glTF's blob carries no names nor rest pose: options.restPose / restScalars (its
	// document's), options.pointers (the extension's) and options.clipNames fill them. Throws SinewError
	// (CORRUPT, 'rig: ...') on what the wasm decoder leaves to this parser.
	constructor(data, options = {}) {
		const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
		const bad = (what) => { throw new SinewError(22, `rig: ${what}`); };
		const size = data.byteLength;
		const u32 = (o) => { if (o < 0 || o + 4 > size) bad(`offset ${o} outside the blob`); return dv.getUint32(o, true); };
		const u16 = (o) => { if (o < 0 || o + 2 > size) bad(`offset ${o} outside the blob`); return dv.getUint16(o, true); };
		const u8 = (o) => { if (o < 0 || o >= size) bad(`offset ${o} outside the blob`); return data[o]; };
		const f32 = (o) => { u32(o); return dv.getFloat32(o, true); };
		this._bytes = data; // the blob's bytes until attach() points at the wasm heap's copy
		this._source = null;
		const blobFlags = u16(6), paged = (blobFlags & 1) !== 0;
		this.restDefaults = (blobFlags & 2) !== 0;
		const clipCount = u32(16), table = paged ? 24 : 20;
		this.clipCount = clipCount;
		// per clip: start, flags, Listed_nodes and Listed_scalars bitsets (-1: every node / track), time map (-1: none)
		const clips = this._clips = new Int32Array(5 * clipCount).fill(-1);
		for (let c = 0; c < clipCount; c++) clips[5 * c] = u32(table + 4 * c);
		if (clipCount < 1) bad('no clips');
		const last = clips[5 * (clipCount - 1)], rigAt = align4(last + u32(last));
		// counts, unit, scalar components, then the parts in bit order, each 4-byte aligned
		const N = u16(rigAt), S = u16(rigAt + 2), rigFlags = u16(rigAt + 4), wide = (rigFlags & 128) !== 0;
		this.nodeCount = N;
		this.scalarCount = S;
		const comps = this.scalarComponents = new Uint8Array(S), offsets = this.scalarOffsets = new Uint32Array(S);
		let components = 0;
		for (let i = 0; i < S; i++) {
			if (u8(rigAt + 16 + i) >> 2) bad(`scalar track ${i}: reserved bits`); // (left to this parser by the wasm decoder)
			comps[i] = (u8(rigAt + 16 + i) & 3) + 1; offsets[i] = components; components += comps[i];
		}
		this.scalarFloats = components;
		let at = align4(rigAt + 16 + S);
		const part = (bit, bytes) => { if (!(rigFlags & bit)) return -1; const p = at; at = align4(at + bytes); return p; };
		// (what the wasm decoder leaves to this parser: Scalar_rest never with Rest, the scalar sources' reserved field)
		if ((rigFlags & 4) && (rigFlags & 64)) bad('Scalar_rest with Rest');
		const parents = part(1, 2 * N), sources = part(2, (wide ? 4 : 2) * N), rest = part(4, 40 * N + 4 * components);
		const shells = part(8, 8 * N + 4 * S);
		let scalarSources = -1;
		if (rigFlags & 16) { scalarSources = at; at = align4(at + 4 + u16(at) * (wide ? 12 : 6)); }
		this._names = -1; this._strings = 0; this._stringsSize = 0;
		if (rigFlags & 32) {
			this._names = at;
			this._stringsSize = u32(at);
			this._strings = at + 4 + 4 * (N + S + clipCount);
			at = align4(this._strings + this._stringsSize);
		}
		const scalarRest = part(64, 4 * components);
		// something maps the outputs to a document: parents, sources or names (else a --strip blob: no metadata)
		this.mapped = (rigFlags & (1 | 2 | 32)) !== 0;
		this.hasRest = rest >= 0;
		const index = (o) => (wide ? u32(o) | 0 : ((v) => (v === 0xffff ? -1 : v === 0xfffe ? -2 : v))(u16(o)));
		// the tables share two buffers (fewer objects on the JS heap): per node parent (-1 for a root), glTF
		// node (Node_sources; -1 unknown), then per scalar track its glTF node and target; rest pose, rest
		// scalars, shells (distance, precision per node) and scalar precisions
		const ints = new Int32Array(2 * N + 2 * S).fill(-1), floats = new Float32Array(12 * N + components + S);
		this.parents = ints.subarray(0, N);
		this.nodes = ints.subarray(N, 2 * N);
		this.scalarNodes = ints.subarray(2 * N, 2 * N + S);
		this.scalarTargets = ints.subarray(2 * N + S, 2 * N + 2 * S);
		this.restPose = floats.subarray(0, 10 * N);
		this.restScalars = floats.subarray(10 * N, 10 * N + components);
		this.shells = floats.subarray(10 * N + components, 12 * N + components);
		this.scalarPrecision = floats.subarray(12 * N + components);
		for (let j = 0; j < N; j++) {
			const parent = parents >= 0 ? u16(parents + 2 * j) : 0xffff;
			// (the wasm decoder leaves the parts it never reads to this parser: docs/format.md §rig)
			if (parent !== 0xffff && parent >= j) bad(`node ${j} parent ${parent}`);
			this.parents[j] = parent === 0xffff ? -1 : parent;
			if (sources >= 0) { const s = index(sources + (wide ? 4 : 2) * j); this.nodes[j] = s >= 0 ? s : -1; }
			if (shells >= 0) {
				const d = f32(shells + 8 * j), p = f32(shells + 8 * j + 4);
				if (!(Number.isFinite(d) && Number.isFinite(p))) bad(`node ${j}: non-finite shell`);
				this.shells[2 * j] = d; this.shells[2 * j + 1] = p;
			}
		}
		// the rest pose: the rig's, else the caller's (a packed glTF's document), else identity and zeros
		// (the wasm decoder reads the rig's rest values but leaves their checks to this parser: finite, and unit
		// rotations within 1e-3)
		const read = (o, n, out) => {
			u32(o + 4 * n - 4);
			for (let i = 0; i < n; i++) if (!Number.isFinite(out[i] = dv.getFloat32(o + 4 * i, true))) bad('non-finite rest value');
		};
		if (rest >= 0) {
			if (N) read(rest, 10 * N, this.restPose);
			if (components) read(rest + 40 * N, components, this.restScalars);
			for (let j = 0; j < N; j++) {
				const q = this.restPose.subarray(10 * j, 10 * j + 4);
				if (!(Math.abs(Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]) - 1) <= 1e-3))
					bad(`node ${j} rest rotation is not a unit quaternion`);
			}
		} else {
			if (options.restPose) this.restPose.set(options.restPose.subarray(0, 10 * N));
			else for (let j = 0; j < N; j++) { this.restPose[10 * j + 3] = 1; this.restPose.fill(1, 10 * j + 7, 10 * j + 10); }
			if (scalarRest >= 0) { if (components) read(scalarRest, components, this.restScalars); }
			else if (options.restScalars) this.restScalars.set(options.restScalars.subarray(0, components));
		}
		// scalar sources: runs of (count, node, first target), each next track after the one before
		if (shells >= 0) for (let k = 0; k < S; k++) this.scalarPrecision[k] = f32(shells + 8 * N + 4 * k);
		if (scalarSources >= 0) {
			const runs = u16(scalarSources), stride = wide ? 12 : 6;
		if (u16(scalarSources + 2) !== 0) bad('scalar sources: reserved field');
			let track = 0;
			for (let k = 0; k < runs; k++) {
				const e = scalarSources + 4 + k * stride, count = wide ? u32(e) : u16(e);
				if (count < 1 || track + count > S) bad(`scalar source run ${k}`);
				const node = index(e + (wide ? 4 : 2));
				let target = wide ? u32(e + 8) : u16(e + 4);
				for (let q = 0; q < count; q++, track++) {
					this.scalarNodes[track] = node;
					this.scalarTargets[track] = node === -1 ? -1 : target;
					target += comps[track];
				}
			}
			if (track !== S) bad(`scalar source runs cover ${track} of ${S} tracks`);
		}
		// every name within the string table and terminated there (checked once; decoded when asked for)
		for (let e = 0; this._names >= 0 && e < N + S + clipCount; e++) this._nameRange(e, bad);
		this._pointers = options.pointers ?? null;
		this._clipNames = options.clipNames ?? null;
		for (let c = 0; c < clipCount; c++) this._readClip(c, u8, u16, u32, f32);
		this._joints = null;
		this._scalars = null;
		this._cache = null; // per clip: animates / time marks, built when asked for
	}

	// Where clip c's listings and time map are (the offsets follow from its descriptors: docs/format.md §Clip).
	_readClip(c, u8, u16, u32, f32) {
		const N = this.nodeCount, S = this.scalarCount, comps = this.scalarComponents;
		const clips = this._clips, start = clips[5 * c], flags = u32(start + 4), stored = u32(start + 8) + (flags & 1), segmentLength = u16(start + 12);
		const segments = stored <= 1 ? 1 : Math.ceil((stored - 1) / segmentLength);
		clips[5 * c + 1] = flags;
		let p = start + (flags & 8 ? 24 : 20);
		let listedJoints = N, listedScalars = S;
		const count = (n) => { let k = 0; for (let i = 0; i < n; i++) k += (u8(p + (i >> 3)) >> (i & 7)) & 1; return k; };
		if (flags & FLAG_LISTS_NODES) { clips[5 * c + 2] = p; listedJoints = count(N); p += (N + 7) >> 3; }
		if (flags & FLAG_LISTS_SCALARS) { clips[5 * c + 3] = p; listedScalars = count(S); p += (S + 7) >> 3; }
		const curves = (flags & FLAG_CURVES) !== 0;
		if (!(flags & FLAG_TIME_MAP) && !curves) return;
		// the time map follows the constants and the ranges; a curve clip's curve block follows the time map
		const descriptors = p;
		let q = align4(p + (listedJoints + listedScalars) * (flags & 64 ? 2 : 1)) - start;
		let ranges = 0;
		const components = []; // of each animated track, in track order (a curve clip's records)
		for (let d = 0; d < listedJoints; d++) {
			const k = u8(descriptors + d);
			for (let sub = 0; sub < 3; sub++) {
				const kind = (k >> (2 * sub)) & 3;
				if (kind === 2) q += flags & 512 ? 9 : 12; // (Short_constants: 3 bytes a value)
				if (kind === 1 && !this.restDefaults) q += 12;
				if (kind === 3) ranges += sub === 0 ? (segments > 1 ? 32 : 24) : 24, components.push(sub === 0 ? 4 : 3);
			}
		}
		for (let i = 0, d = 0; i < S; i++) {
			if (!this._listed(clips[5 * c + 3], i, u8)) continue;
			const kind = u8(descriptors + listedJoints + d++) & 3, n = comps[i];
			if (kind === 2) q += (flags & 512 ? 3 : 4) * n;
			if (kind === 1 && !this.restDefaults) q += 4 * n;
			if (kind === 3) ranges += 8 * n, components.push(n);
		}
		q = align4(q); // the constants end on 4 bytes
		q += curves ? 0 : flags & 256 ? ranges / 2 : ranges; // (Half_ranges: binary16; a curve's ranges are in its record)
		let at = start + q;
		if (flags & FLAG_TIME_MAP) {
			const n = u32(at), sampleBytes = n === stored ? 0 : stored <= 65536 ? 2 : 4;
			for (let k = 0; k < n; k++) f32(at + 4 + 4 * k);
			if (sampleBytes && n > 2) u8(at + 4 + 4 * n + sampleBytes * (n - 2) - 1);
			clips[5 * c + 4] = at;
			at += align4(4 + 4 * n + Math.max(n - 2, 0) * sampleBytes);
		}
		if (curves) this._checkCurves(at, flags, segmentLength, components, c, u16, f32);
	}

	// A curve clip's block (docs/format.md §curves): what the wasm decoder does not rely on (it checks the sizes, the
	// key spans and the key bits) is checked here: a clip with curves and nothing of segments, its key times finite,
	// >= 0 and non-decreasing within each curve, known interpolations, no reserved bits, widths up to 24, tangents
	// only for CUBICSPLINE, finite ranges.
	_checkCurves(at, flags, segmentLength, components, c, u16, f32) {
		const fail = (what) => { throw new SinewError(22, `rig: clip ${c}: curves: ${what}`); };
		if (segmentLength !== 0 || (flags & (1 | 6 | 0x20 | 0x40 | 0x400)) || components.length === 0)
			fail('with segments, Looping, Paged, rounding or Midpoint_knots, or without an animated track');
		const count = u16(at), times = at + 2, half = (flags & 256) !== 0;
		for (let k = 0; k < count; k++) if (!(f32(times + 4 * k) >= 0) || !Number.isFinite(f32(times + 4 * k))) fail(`time ${k}`);
		const range = (o) => (half ? ((u16(o) >> 7) & 255) !== 255 : Number.isFinite(f32(o)));
		let p = times + 4 * count;
		for (let i = 0; i < components.length; i++) {
			const n = components[i], interpolation = u16(p), first = u16(p + 2), keys = u16(p + 4), cubic = interpolation === 2;
			if (interpolation > 2 || keys < 1 || first + keys > count) fail(`curve ${i}: interpolation ${interpolation}, keys ${first}+${keys}`);
			for (let k = 1; k < keys; k++) if (f32(times + 4 * (first + k)) < f32(times + 4 * (first + k - 1))) fail(`curve ${i}: key times out of order`);
			let o = p + 6 + 2 * n;
			for (let k = 0; k < n; k++) {
				const w = u16(p + 6 + 2 * k), vw = w & 31, tw = (w >> 5) & 31;
				if (w >> 10 || vw > 24 || tw > 24 || (tw && !cubic)) fail(`curve ${i} component ${k}: widths ${w}`);
				for (const fw of cubic ? [vw, tw] : [vw]) for (let r = 0; r < (fw ? 2 : 1); r++, o += half ? 2 : 4) if (!range(o)) fail(`curve ${i}: non-finite range`);
			}
			p = o;
		}
	}

	_listed(bitset, i, u8 = (o) => this._bytesNow()[o]) { return bitset < 0 || ((u8(bitset + (i >> 3)) >> (i & 7)) & 1) === 1; }

	// The bytes names are read from: the wasm heap's copy once attached (memory may have grown since).
	_bytesNow() {
		const s = this._source;
		if (!s) return this._bytes;
		if (this._bytes === null || this._bytes.buffer !== s.memory.buffer) this._bytes = new Uint8Array(s.memory.buffer, s.ptr, s.size);
		return this._bytes;
	}

	/** Reads the blob from now on at memory.buffer[ptr, ptr + size) (its copy in the wasm heap) instead of the bytes parsed. */
	attach(memory, ptr, size) {
		this._source = { memory, ptr, size };
		this._bytes = null;
		return this;
	}

	// [start, end) of name entry e in the blob, or null (no name); `bad` is called on a broken entry
	_nameRange(e, bad) {
		if (this._names < 0) return null;
		const b = this._bytesNow(), o = this._names + 4 + 4 * e;
		if (o + 4 > b.byteLength) bad(`offset ${o} outside the blob`);
		const offset = (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
		if (offset === 0xffffffff) return null;
		if (offset >= this._stringsSize) bad(`string offset ${offset} outside the table`);
		const from = this._strings + offset, limit = Math.min(this._strings + this._stringsSize, b.byteLength);
		let end = from;
		while (end < limit && b[end] !== 0) end++;
		if (end >= limit) bad('unterminated string');
		return [from, end];
	}

	_name(e) {
		const r = this._nameRange(e, (what) => { throw new SinewError(22, `rig: ${what}`); });
		return r ? new TextDecoder().decode(this._bytesNow().subarray(r[0], r[1])) : null;
	}

	/** Name of node j (null when the rig has none). */
	jointName(j) { return j >= 0 && j < this.nodeCount ? this._name(j) : null; }
	/** Name of scalar track k; a pointer track without one takes the packed glTF extension's pointer. */
	scalarName(k) {
		if (!(k >= 0 && k < this.scalarCount)) return null;
		const name = this._name(this.nodeCount + k);
		if (name !== null || this.scalarNodes[k] !== -2 || !this._pointers) return name;
		let p = 0;
		for (let i = 0; i < k; i++) if (this.scalarNodes[i] === -2) p++;
		return this._pointers[p] ?? null;
	}
	/** Name of clip c (the rig's, else options.clipNames). */
	clipName(c) { return (c >= 0 && c < this.clipCount ? this._name(this.nodeCount + this.scalarCount + c) : null) ?? this._clipNames?.[c] ?? null; }
	/** Index of the node named `name`, or -1. */
	findJoint(name) {
		for (let j = 0; j < this.nodeCount; j++) if (this.jointName(j) === name) return j;
		return -1;
	}

	/** Does clip c animate node j (false: the node holds its rest pose in the clip, Listed_nodes)? */
	animatesNode(c, j) { return this._listed(this._clips[5 * c + 2], j); }
	/** Does clip c animate scalar track k? */
	animatesScalar(c, k) { return this._listed(this._clips[5 * c + 3], k); }
	/** Clip c's rotations follow the slerp between knots (§Sampling semantics step 5). */
	slerpFit(c) { return (this._clips[5 * c + 1] & FLAG_SLERP_FIT) !== 0; }

	// per clip, built once when asked for
	_clipCache(c) {
		this._cache ??= new Array(this.clipCount);
		return (this._cache[c] ??= {});
	}
	/** Clip c's time map (§Time map) as [{ time, sample }], or null (samples at k / rate). */
	timeMarks(c) {
		const at = this._clips[5 * c + 4];
		if (at < 0) return null;
		const cache = this._clipCache(c);
		if (cache.marks) return cache.marks;
		const b = this._bytesNow(), dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
		const start = this._clips[5 * c], flags = this._clips[5 * c + 1], stored = dv.getUint32(start + 8, true) + (flags & 1);
		const n = dv.getUint32(at, true), sampleBytes = n === stored ? 0 : stored <= 65536 ? 2 : 4, marks = [];
		for (let k = 0; k < n; k++) {
			const sample = sampleBytes === 0 ? k : k === 0 ? 0 : k === n - 1 ? stored - 1
				: sampleBytes === 2 ? dv.getUint16(at + 4 + 4 * n + 2 * (k - 1), true) : dv.getUint32(at + 4 + 4 * n + 4 * (k - 1), true);
			marks.push(Object.freeze({ time: dv.getFloat32(at + 4 + 4 * k, true), sample }));
		}
		return (cache.marks = Object.freeze(marks));
	}
	/** Per node, whether clip c animates it (an array of booleans, built when asked for). */
	animates(c) {
		const cache = this._clipCache(c);
		return (cache.nodes ??= Object.freeze(Array.from({ length: this.nodeCount }, (_, j) => this.animatesNode(c, j))));
	}
	/** Per scalar track, whether clip c animates it. */
	animatesScalars(c) {
		const cache = this._clipCache(c);
		return (cache.scalars ??= Object.freeze(Array.from({ length: this.scalarCount }, (_, k) => this.animatesScalar(c, k))));
	}

	/**
	 * The nodes as objects (readMetadata's shape: name, parent, node, shellDistance, precision, defaultRotation,
	 * defaultTranslation, defaultScale), built on the first call and kept (one array for every clip); null for a
	 * rig that maps nothing (--strip).
	 */
	joints() {
		if (!this.mapped) return null;
		if (this._joints) return this._joints;
		const out = [];
		for (let j = 0; j < this.nodeCount; j++) {
			const r = Array.from(this.restPose.subarray(10 * j, 10 * j + 10)), node = this.nodes[j];
			out.push(Object.freeze({
				name: this.jointName(j),
				parent: this.parents[j],
				node: node >= 0 ? node : null, // glTF node index (Node_sources), null when unknown
				shellDistance: this.shells[2 * j],
				precision: this.shells[2 * j + 1],
				defaultRotation: Object.freeze(r.slice(0, 4)),
				defaultTranslation: Object.freeze(r.slice(4, 7)),
				defaultScale: Object.freeze(r.slice(7, 10)),
			}));
		}
		return (this._joints = Object.freeze(out));
	}
	/** The scalar tracks as objects (name, node, target, pointer, components, precision, defaultValue), as joints(). */
	scalars() {
		if (!this.mapped) return null;
		if (this._scalars) return this._scalars;
		const out = [];
		for (let k = 0; k < this.scalarCount; k++) {
			const node = this.scalarNodes[k], target = this.scalarTargets[k], name = this.scalarName(k), o = this.scalarOffsets[k];
			const d = Array.from(this.restScalars.subarray(o, o + this.scalarComponents[k]));
			out.push(Object.freeze({
				name,
				node: node >= 0 ? node : null, // glTF node whose morph weight this is (Source_node)
				target: target >= 0 ? target : null, // morph target index, or a pointer's first float (Source_target)
				pointer: node === -2 ? name : null, // KHR_animation_pointer target (Source_node -2: the name is the pointer)
				components: this.scalarComponents[k],
				precision: this.scalarPrecision[k],
				defaultValue: Object.freeze([...d, 0, 0, 0].slice(0, 4)),
			}));
		}
		return (this._scalars = Object.freeze(out));
	}

	/** readMetadata's entry for clip c: { name, joints, scalars, animates, animatesScalars }, or null (--strip). */
	metadata(c) {
		if (!this.mapped) return null;
		return { name: this.clipName(c), joints: this.joints(), scalars: this.scalars(), animates: this.animates(c), animatesScalars: this.animatesScalars(c) };
	}
}
